// Security group A (docs/security.md §1.A), I5 in depth: what a structured logger would serialise of the errors
// logged on a failed OAuth callback (the whole Error graph, cause chain included) holds no code and no token.
import { describe, expect, it } from "vitest"
import { sessionCookieNames } from "../support/cookies.js"
import type { MockOp } from "../support/mock-op.js"
import { beginSignIn, callbackGet, provider, setup, expectNoUnhandled, useMockOps } from "../support/oauth-flow.js"

let opA: MockOp
const harness = useMockOps(["client-a"], (ops) => {
  opA = ops[0] as MockOp
})

/** Every string reachable from a value: own properties (enumerable or not), Error causes, URLSearchParams, Maps. */
function deepText(value: unknown, seen = new Set<unknown>(), depth = 0): string {
  if (value === null || value === undefined || depth > 12) return ""
  if (typeof value !== "object" && typeof value !== "function") return String(value)
  if (seen.has(value)) return ""
  seen.add(value)
  const out: string[] = []
  if (value instanceof URLSearchParams) out.push(value.toString())
  if (value instanceof Map)
    for (const [k, v] of value) out.push(deepText(k, seen, depth + 1), deepText(v, seen, depth + 1))
  if (value instanceof Response || value instanceof Request) return ""
  for (const key of Object.getOwnPropertyNames(value)) {
    let v: unknown
    try {
      v = (value as Record<string, unknown>)[key]
    } catch {
      continue
    }
    if (typeof v === "function") continue
    out.push(`${key}=${deepText(v, seen, depth + 1)}`)
  }
  return out.join(" ")
}

describe("I5 (deep) what a structured logger would serialise", () => {
  // The default console logger prints only messages (checked by every case above). A structured logger (pino's
  // err serializer, Sentry, OpenTelemetry) serialises the whole Error, `cause` chain included: that too must hold
  // no authorization code and no token (docs/security.md#how-to-read-this-list, I5).
  const cases: { name: string; arrange: () => void; tamper?: (u: URL) => void }[] = [
    { name: "state mismatch (pre-check)", arrange: () => {}, tamper: (u) => u.searchParams.set("state", "forged") },
    {
      name: "iss mismatch (pre-check)",
      arrange: () => {},
      tamper: (u) => u.searchParams.set("iss", "https://attacker.example/op"),
    },
    { name: "token response without access_token", arrange: () => void (opA.tokenFault = "no-access-token") },
    { name: "token response without id_token", arrange: () => void (opA.tokenFault = "no-id-token") },
    { name: "ID token nonce mismatch", arrange: () => void (opA.idTokenFault = "nonce-invalid") },
  ]
  for (const c of cases) {
    it(`I5 (deep) ${c.name}: the logged Error graph holds no code or token`, async () => {
      c.arrange()
      const { config, log } = setup([provider(opA)])
      const started = await beginSignIn(config)
      const answer = await opA.authorize(started.authUrl)
      c.tamper?.(answer.url)
      const res = await callbackGet(config, answer.url, started.jar.header())
      expect(sessionCookieNames(res)).toEqual([])
      expect(log.errors.length).toBeGreaterThan(0)
      const text = log.errors.map((e) => deepText(e)).join("\n")
      const leaked = [...opA.issued].filter((v) => text.includes(v)).map((v) => `${v.slice(0, 3)}…`)
      expect(leaked, "codes/tokens reachable from the logged Error objects").toEqual([])
      expect(text.includes(opA.clientSecret)).toBe(false)
    })
  }
})

describe("I6", () => {
  it("I6 no unhandled rejection during the OAuth security tests", async () => {
    await expectNoUnhandled(harness)
  })
})
