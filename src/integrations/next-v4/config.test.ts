// The v4 logger adapter's table (config.ts v4LogCall): every code it hands an app's next-auth 4 logger is one that
// next-auth 4.24.15 itself logs (its source, read from node_modules/next-auth/src, is the oracle), each Gatehouse
// error maps to the code next-auth 4 logs in the same situation with the same metadata shape, and the provider id of
// a failed sign-in reaches `{ error, providerId }` through the pipeline (an e-mail sign-in whose normalizeIdentifier
// throws, as next-auth 4's own email test has it).
import { readdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { AdapterCallError } from "../../adapters/guarded-adapter.js"
import { MemoryAdapter } from "../../adapters/memory.js"
import { Auth } from "../../auth.js"
import * as errors from "../../errors.js"
import { noteErrorProvider } from "../../logger.js"
import { CookieJar, get, postForm } from "../../../test/support/flow-kit.js"
import { isolateEnv } from "../../../test/support/env.js"
import Email from "./providers/email.js"
import { v4Config, v4ErrorCodes, v4LogCall } from "./config.js"

/** The codes next-auth 4.24.15 logs: its `logger.error("…")` calls and its config errors' `code` fields. */
function nextAuthV4Codes(): Set<string> {
  // next-auth/jwt resolves to <package>/jwt/index.js; its package.json is not in its exports map.
  const root = join(dirname(dirname(createRequire(import.meta.url).resolve("next-auth/jwt"))), "src")
  const codes = new Set<string>()
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) {
        if (entry.name !== "__tests__") walk(path)
      } else if (/\.tsx?$/.test(entry.name)) {
        const text = readFileSync(path, "utf8")
        for (const m of text.matchAll(/logger\.error\(\s*"([A-Z_]+)"/g)) codes.add(m[1] as string)
        for (const m of text.matchAll(/\bcode = "([A-Z_]+)"/g)) codes.add(m[1] as string)
      }
    }
  }
  walk(root)
  return codes
}

const SECRET = "a-next-auth-v4-secret-of-at-least-32-characters"

describe("the v4 logger codes", () => {
  it("every code in the table is one next-auth 4.24.15 logs, and every type in it is a Gatehouse error", () => {
    const v4 = nextAuthV4Codes()
    // The oracle was read: its config errors and a few of its logger calls.
    for (const known of ["NO_SECRET", "EMAIL_REQUIRES_ADAPTER_ERROR", "SIGNIN_EMAIL_ERROR", "JWT_SESSION_ERROR"])
      expect(v4.has(known)).toBe(true)
    for (const [type, [code]] of Object.entries(v4ErrorCodes)) {
      expect(v4, `${type} → ${code}`).toContain(code)
      const ErrorClass = (errors as unknown as Record<string, new (m?: string) => errors.AuthError>)[type]
      expect(ErrorClass, type).toBeTypeOf("function")
      expect(new (ErrorClass as new (m?: string) => errors.AuthError)("x").type).toBe(type)
    }
  })

  it("config errors log next-auth 4's code with the error itself", () => {
    const cases: [Error, string][] = [
      [new errors.MissingSecret("x"), "NO_SECRET"],
      [new errors.MissingAdapter("x"), "EMAIL_REQUIRES_ADAPTER_ERROR"],
      [new errors.MissingAdapterMethods("x"), "MISSING_ADAPTER_METHODS_ERROR"],
      [new errors.MissingAuthorize("x"), "CALLBACK_CREDENTIALS_HANDLER_ERROR"],
      [new errors.UnsupportedStrategy("x"), "CALLBACK_CREDENTIALS_JWT_ERROR"],
      [new errors.InvalidCallbackUrl("x"), "INVALID_CALLBACK_URL_ERROR"],
      [new errors.JWTSessionError("x"), "JWT_SESSION_ERROR"],
      [new errors.SessionTokenError("x"), "SESSION_ERROR"],
      [new errors.SignOutError("x"), "SIGNOUT_ERROR"],
    ]
    for (const [error, code] of cases) expect(v4LogCall(error)).toEqual([code, error])
  })

  it("sign-in failures log { error, providerId } with what was thrown; OAuth stays OAUTH", () => {
    const thrown = new Error("Only one email allowed")
    const email = new errors.EmailSignInError("refused", { cause: thrown })
    noteErrorProvider(email, "email")
    const [code, metadata] = v4LogCall(email)
    expect(code).toBe("SIGNIN_EMAIL_ERROR")
    expect(metadata).toStrictEqual({ error: thrown, providerId: "email" })

    const oauth = new errors.OAuthSignInError("no metadata")
    noteErrorProvider(oauth, "github")
    expect(v4LogCall(oauth)).toStrictEqual(["SIGNIN_OAUTH_ERROR", { error: oauth, providerId: "github" }])
    const callback = new errors.OAuthCallbackError("denied")
    expect(v4LogCall(callback)).toStrictEqual(["OAUTH_CALLBACK_ERROR", { error: callback }])
    expect(v4LogCall(new errors.OAuthProfileParseError("x"))[0]).toBe("OAUTH_PARSE_PROFILE_ERROR")
    for (const error of [oauth, callback, new errors.OAuthAccountNotLinked("x")])
      expect(v4LogCall(error)[0]).not.toMatch(/O_AUTH/)
  })

  it("events and adapter calls log next-auth 4's generated codes with what the user code threw", () => {
    const thrown = new Error("boom")
    // next-auth 4: `${upperSnake(name)}_EVENT_ERROR`, and `adapter_error_${method}`.
    for (const [event, code] of [
      ["signIn", "SIGN_IN_EVENT_ERROR"],
      ["createUser", "CREATE_USER_EVENT_ERROR"],
      ["session", "SESSION_EVENT_ERROR"],
    ]) {
      const error = new errors.EventError(`The "${event}" event handler threw.`, { cause: thrown })
      expect(v4LogCall(error)).toEqual([code, thrown])
    }
    expect(v4LogCall(new AdapterCallError("getUserByEmail", thrown))).toEqual(["adapter_error_getUserByEmail", thrown])
  })

  it("an error next-auth 4 has no code for keeps its type in the same style", () => {
    const limited = new errors.RateLimited("x")
    expect(v4LogCall(limited)).toEqual(["RATE_LIMITED", limited])
    expect(v4LogCall(new errors.AdapterError("x"))[0]).toBe("ADAPTER_ERROR")
    expect(v4LogCall(new errors.OAuthAccountNotLinked("x"))[0]).toBe("OAUTH_ACCOUNT_NOT_LINKED")
    expect(v4LogCall(new TypeError("x"))[0]).toBe("TYPE_ERROR")
  })
})

describe("the v4 logger through the pipeline", () => {
  let restoreEnv: () => void
  beforeEach(() => {
    restoreEnv = isolateEnv()
    process.env.NEXTAUTH_URL = "http://localhost:3000"
  })
  afterEach(() => restoreEnv())

  it("an e-mail sign-in whose normalizeIdentifier throws logs SIGNIN_EMAIL_ERROR with { error, providerId }", async () => {
    const calls: unknown[][] = []
    const warnings: string[] = []
    const thrown = new Error("Only one email allowed")
    const options = {
      secret: SECRET,
      adapter: MemoryAdapter(),
      session: { strategy: "jwt" as const },
      logger: {
        error: (code: string, metadata: unknown) => calls.push([code, metadata]),
        warn: (code: string) => warnings.push(code),
      },
      providers: [
        Email({
          sendVerificationRequest: () => {
            throw new Error("not reached")
          },
          normalizeIdentifier(identifier: string) {
            if (identifier.split("@").length > 2) throw thrown
            return identifier
          },
        }),
      ],
    }
    const config = v4Config(options as never)
    const jar = new CookieJar()
    const csrf = await Auth(get("/api/auth/csrf", { origin: "http://localhost:3000" }), config)
    jar.store(csrf)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const res = await Auth(
      postForm(
        "/api/auth/signin/email",
        { csrfToken, email: "email@email.com,email@email2.com" },
        { cookie: jar.header(), origin: "http://localhost:3000" },
      ),
      config,
    )
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe("http://localhost:3000/api/auth/error?error=EmailSignin")
    expect(calls).toHaveLength(1)
    expect(calls[0]).toStrictEqual(["SIGNIN_EMAIL_ERROR", { error: thrown, providerId: "email" }])
    expect(warnings).toEqual([])
  })
})

describe("v4Config: custom next-auth 4 provider objects", () => {
  it("translates a custom v4 OIDC object (wellKnown + idToken) as the provider modules are, and reports one it cannot", async () => {
    const { v4Resolved } = await import("./config.js")
    const custom = {
      id: "corp",
      name: "Corp SSO",
      type: "oauth",
      wellKnown: "https://sso.corp.example/.well-known/openid-configuration",
      idToken: true,
      clientId: "id",
      clientSecret: "secret",
      checks: "pkce",
    }
    const resolved = v4Resolved({ secret: "s".repeat(40), providers: [custom] } as never)
    expect(resolved.error).toBeUndefined()
    const provider = resolved.providers.get("corp") as { type: string; issuer?: string; checks?: Iterable<string> }
    expect(provider.type).toBe("oidc")
    expect(provider.issuer).toBe("https://sso.corp.example")
    expect([...(provider.checks ?? [])]).toEqual(["pkce"])
    // A wellKnown that names no issuer cannot be translated: a configuration error of the config, not a throw.
    const broken = { ...custom, id: "odd", wellKnown: "https://sso.corp.example/discovery.json" }
    const bad = v4Resolved({ secret: "s".repeat(40), providers: [broken] } as never)
    expect(bad.error?.type).toBe("InvalidEndpoints")
  })
})
