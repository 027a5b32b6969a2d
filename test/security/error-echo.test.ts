// RQ-06: error bodies echo nothing of the request (path segments, provider ids, method tokens), through Auth() and
// over a real socket through the node:http front door.
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import { createHandler } from "../../src/integrations/node.js"
import { ORIGIN, makeConfig } from "../support/flow-kit.js"
import { FUZZ_RUNS, fuzz, fuzzTimeout, wildString } from "../fuzz/arbitraries.js"
import { type NodeServer, rawRequest, startNodeServer } from "../support/raw-http.js"

const FILE = "test/security/error-echo.test.ts"
const config = makeConfig({ logger: { error() {}, warn() {}, debug() {} } })
const HOSTILE_ID = "<script>alert(1)</script>"

/** Every form in which a marker could come back: as sent, percent-encoded, HTML-escaped, JSON-escaped, lower-cased. */
function echoes(body: string, marker: string): boolean {
  const lower = body.toLowerCase()
  const forms = [marker, encodeURIComponent(marker), JSON.stringify(marker).slice(1, -1)]
  return forms.some((form) => form !== "" && lower.includes(form.toLowerCase()))
}

let server: NodeServer
beforeAll(async () => {
  const handler = createHandler(config)
  server = await startNodeServer((req, res) => handler(req, res))
})
afterAll(() => server.close())

describe("J. error bodies echo nothing of the request", () => {
  it("RQ-06 GET /signin/<hostile id> over a real socket: 405 with Allow, a body without the id in any encoding", async () => {
    const path = `/auth/callback/${encodeURIComponent(HOSTILE_ID)}`
    // /signin/<id> has GET (it starts OAuth); /callback/<id> with PUT and /signin/<id> with DELETE are the 405 routes.
    for (const [method, target] of [
      ["DELETE", `/auth/signin/${encodeURIComponent(HOSTILE_ID)}`],
      ["PUT", path],
    ] as const) {
      const res = await rawRequest(server.port, `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1`)
      expect(res.status).toBe(405)
      expect(res.headers.allow?.[0]).toMatch(/^(GET|POST)/)
      const body = JSON.parse(res.body) as { error: string; message: string }
      expect(body.error).toBe("UnknownAction")
      expect(echoes(res.body, HOSTILE_ID)).toBe(false)
      expect(res.body).not.toContain("script")
      expect(res.body).not.toContain("%3C")
    }
  })

  it("RQ-06 a POST-only action with a hostile provider id answered through Auth(): the 405 body names the action, not the id", async () => {
    const res = await Auth(
      new Request(`${ORIGIN}/auth/callback/${encodeURIComponent(HOSTILE_ID)}`, { method: "PATCH" }),
      config,
    )
    expect(res.status).toBe(405)
    const text = await res.text()
    expect(JSON.parse(text)).toEqual({
      error: "UnknownAction",
      message: "This method is not allowed on /callback; use GET or POST.",
    })
    expect(echoes(text, HOSTILE_ID)).toBe(false)
  })

  it("RQ-06 an unusual method token is not echoed (Auth() takes any token a Request allows)", async () => {
    const res = await Auth(new Request(`${ORIGIN}/auth/session`, { method: "XSSMETHOD" }), config)
    expect(res.status).toBe(405)
    expect(await res.text()).not.toContain("XSSMETHOD")
  })

  it(
    `RQ-06 ${FUZZ_RUNS} random provider ids and methods on every provider route: no error body carries the id`,
    async () => {
      const routes = ["signin", "callback", "webauthn-options"] as const
      await fuzz(
        FILE,
        fc.asyncProperty(
          fc.constantFrom(...routes),
          fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"),
          // A marker no message of Gatehouse contains, so any occurrence is an echo.
          // Surrogates replaced: encodeURIComponent refuses lone ones, and a URL path cannot carry them anyway.
          wildString(16).map((s) => `qzx${s.replace(/[\uD800-\uDFFF]/g, "x")}`),
          async (route, method, id) => {
            const res = await Auth(new Request(`${ORIGIN}/auth/${route}/${encodeURIComponent(id)}`, { method }), config)
            const type = res.headers.get("content-type") ?? ""
            if (res.status >= 400 && type.includes("json")) {
              const text = await res.text()
              expect(echoes(text, id), `${method} /${route}/<id> answered ${res.status} ${text}`).toBe(false)
              expect(text.toLowerCase()).not.toContain("qzx")
            }
          },
        ),
      )
    },
    fuzzTimeout(2),
  )
})
