// One list of actions and one trust-host rule, checked through behaviour:
// - every action of src/actions/table.ts is an AuthAction, is routed, answers 405 with the table's methods in
//   `Allow` for any other method, takes a provider id only where the table says so, and shows the error page (not
//   500 JSON) on a configuration error exactly when the table marks it a page;
// - the handler (no setEnvDefaults) and setEnvDefaults decide trust the same way from the same env, and
//   setEnvDefaults adds only Auth.js's platform defaults (VERCEL, CF_PAGES, NODE_ENV other than production).
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Auth, isAuthAction, setEnvDefaults } from "../src/index.js"
import type { AuthConfig } from "../src/index.js"
import { actionTable } from "../src/actions/table.js"
import { credentialsKind } from "../src/flows/kinds/credentials.js"
import Credentials from "../src/providers/credentials.js"
import { ORIGIN, SECRET, alice } from "./support/flow-kit.js"
import { isolateEnv, withEnv } from "./support/env.js"

const ACTIONS = Object.keys(actionTable) as (keyof typeof actionTable)[]
const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH"] as const

let restoreEnv: () => void
beforeAll(() => {
  restoreEnv = isolateEnv()
})
afterAll(() => restoreEnv())

function config(extra: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    logger: { error() {}, warn() {}, debug() {} },
    providers: [Credentials({ authorize: () => ({ ...alice }) })],
    ...extra,
  }
}

function request(method: string, path: string): Request {
  return new Request(`${ORIGIN}${path}`, {
    method,
    ...(method === "GET" || method === "HEAD"
      ? {}
      : { headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" }),
  })
}

describe("the action table is the one list of actions", () => {
  it("isAuthAction is true for exactly the table's actions; prototype names are not actions", () => {
    for (const action of ACTIONS) expect(isAuthAction(action), action).toBe(true)
    for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty", "signIn", "auth", ""])
      expect(isAuthAction(name), name).toBe(false)
  })

  it("every action answers its table methods and 405 with the table's Allow for the others", async () => {
    const c = config()
    for (const action of ACTIONS) {
      const rule = actionTable[action]
      for (const method of METHODS) {
        const res = await Auth(request(method, `/auth/${action}`), c)
        const allowed = (rule.methods as readonly string[]).includes(method)
        if (allowed) expect(res.status, `${method} /${action}`).not.toBe(405)
        else {
          expect(res.status, `${method} /${action}`).toBe(405)
          expect(res.headers.get("allow"), `${method} /${action}`).toBe(rule.methods.join(", "))
        }
      }
    }
  })

  it("a provider id follows only the actions the table allows it for (else 400 UnknownAction)", async () => {
    const c = config()
    for (const action of ACTIONS) {
      const res = await Auth(request("GET", `/auth/${action}/credentials`), c)
      const refused = res.status === 400 && JSON.stringify(await res.json()).includes("takes no provider id")
      expect(refused, action).toBe(!actionTable[action].takesProvider)
    }
  })

  it("the provider-id methods of the table and the kind: POST /signin/<id> only; the credentials callback POST only", async () => {
    const c = config()
    for (const method of ["GET", "PUT"]) {
      const signin = await Auth(request(method, "/auth/signin/credentials"), c)
      expect(signin.status).toBe(405)
      expect(signin.headers.get("allow")).toBe(actionTable.signin.providerMethods.join(", "))
      const callback = await Auth(request(method, "/auth/callback/credentials"), c)
      expect(callback.status).toBe(405)
      expect(callback.headers.get("allow")).toBe(credentialsKind.routes.callback.methods!.join(", "))
    }
  })

  it("a method no provider allows is refused before the provider lookup: PUT /callback/<unknown id> is 405, GET is the Configuration error", async () => {
    const c = config()
    for (const id of ["nope", "__proto__"]) {
      const put = await Auth(request("PUT", `/auth/callback/${id}`), c)
      expect(put.status, id).toBe(405)
      expect(put.headers.get("allow"), id).toBe(actionTable.callback.methods.join(", "))
      const get = await Auth(request("GET", `/auth/callback/${id}`), c)
      expect(get.status, id).toBe(302)
      expect(get.headers.get("location"), id).toBe(`${ORIGIN}/auth/error?error=Configuration`)
    }
  })

  it("on a configuration error, a GET of a page action shows the HTML error page; every other request gets 500 JSON", async () => {
    const broken = config({ secret: undefined })
    for (const action of ACTIONS) {
      const res = await Auth(request("GET", `/auth/${action}`), broken)
      expect(res.status, action).toBe(500)
      const type = res.headers.get("content-type") ?? ""
      if (actionTable[action].page) expect(type, action).toMatch(/^text\/html/)
      else expect(type, action).toMatch(/^application\/json/)
      const post = await Auth(request("POST", `/auth/${action}`), broken)
      expect(post.headers.get("content-type") ?? "", `POST ${action}`).toMatch(/^application\/json/)
    }
  })
})

describe("one trust-host rule", () => {
  /**
   * What the handler does with a config that leaves trustHost unset, behind a proxy: the origin of the URLs it builds
   * (X-Forwarded-Host when trusted, AUTH_URL when set), or 500 when the host is not trusted.
   */
  async function outcome(prepare: (c: AuthConfig) => void = () => {}): Promise<string> {
    const { trustHost: _, ...untrusted } = config()
    const c = untrusted as AuthConfig
    prepare(c)
    const res = await Auth(
      new Request(`${ORIGIN}/auth/providers`, {
        headers: { "x-forwarded-host": "fwd.example", "x-forwarded-proto": "https" },
      }),
      c,
    )
    if (res.status !== 200) return String(res.status)
    const { credentials } = (await res.json()) as { credentials: { signinUrl: string } }
    return new URL(credentials.signinUrl).origin
  }

  const cases: [string, Record<string, string>, string][] = [
    ["nothing set", {}, "500"],
    ["AUTH_TRUST_HOST=true", { AUTH_TRUST_HOST: "true" }, "https://fwd.example"],
    ["AUTH_TRUST_HOST=1", { AUTH_TRUST_HOST: "1" }, "https://fwd.example"],
    ["AUTH_TRUST_HOST=false", { AUTH_TRUST_HOST: "false" }, "500"],
    ["AUTH_URL", { AUTH_URL: "https://app.example/auth" }, "https://app.example"],
    [
      "AUTH_URL with AUTH_TRUST_HOST=false",
      { AUTH_URL: "https://app.example/auth", AUTH_TRUST_HOST: "false" },
      "https://app.example",
    ],
    ["AUTH_URL that is not a URL", { AUTH_URL: "not a url" }, "500"],
  ]

  for (const [label, env, expected] of cases) {
    it(`${label}: the handler alone and after setEnvDefaults (in production) answer the same (${expected})`, async () => {
      await withEnv(env, async () => {
        expect(await outcome()).toBe(expected)
        expect(await outcome((c) => setEnvDefaults({ ...env, NODE_ENV: "production" }, c, true))).toBe(expected)
      })
    })
  }

  it("AUTH_TRUST_HOST=false wins over AUTH_URL in setEnvDefaults too (the value it sets)", () => {
    const { trustHost: _, ...untrusted } = config()
    const c: AuthConfig = untrusted
    setEnvDefaults({ AUTH_URL: "https://app.example/auth", AUTH_TRUST_HOST: "false" }, c, true)
    expect(c.trustHost).toBe(false)
  })

  it("setEnvDefaults alone adds Auth.js's platform defaults: VERCEL, CF_PAGES, NODE_ENV other than production", async () => {
    const platforms: Record<string, string>[] = [
      { VERCEL: "1", NODE_ENV: "production" },
      { CF_PAGES: "1", NODE_ENV: "production" },
      { NODE_ENV: "development" },
    ]
    for (const env of platforms) {
      // NODE_ENV reaches only setEnvDefaults' env object: process.env keeps the test runner's.
      const { NODE_ENV: _, ...processEnv } = env
      await withEnv(processEnv, async () => {
        expect(await outcome((c) => setEnvDefaults(env, c, true)), JSON.stringify(env)).toBe("https://fwd.example")
        // The handler without setEnvDefaults does not trust the host on these alone.
        expect(await outcome(), JSON.stringify(env)).toBe("500")
      })
    }
    // An explicit no wins over the platform.
    await withEnv({ VERCEL: "1" }, async () => {
      expect(await outcome((c) => setEnvDefaults({ VERCEL: "1", AUTH_TRUST_HOST: "false" }, c, true))).toBe("500")
    })
  })
})
