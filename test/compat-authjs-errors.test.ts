// Compatibility bugs found by running Auth.js's own core tests against Gatehouse, each request sent through
// BOTH libraries (@auth/core 0.41.3 as the oracle):
// - `Credentials({})` and `providers: [Credentials]` uncalled are valid configs: authorize defaults to returning null,
//   so the routes work and a sign-in fails with CredentialsSignin;
// - a configuration error answers 500 with exactly `{"message": …}`;
// - an unknown provider id on /callback/<id> (GET or POST) and on POST /signin/<id> is a configuration error:
//   302 to /auth/error?error=Configuration (or `{url}` with X-Auth-Return-Redirect), nothing set.
import { describe, expect, it } from "vitest"
import { Auth as AuthJs } from "@auth/core"
import type { AuthConfig as AuthJsConfig } from "@auth/core"
import AuthJsCredentials from "@auth/core/providers/credentials"
import AuthJsGitHub from "@auth/core/providers/github"
import { Auth } from "../src/index.js"
import type { AuthConfig } from "../src/index.js"
import Credentials from "../src/providers/credentials.js"
import GitHub from "../src/providers/github.js"
import { ORIGIN, SECRET } from "./support/flow-kit.js"
import { spyLogger } from "./support/logger.js"

type Library = "authjs" | "gatehouse"
type AnyConfig = Record<string, unknown>

const quiet = { error() {}, warn() {}, debug() {} }

/** Sends the same request (built fresh for each) through one library with its config. */
async function send(library: Library, config: AnyConfig, make: () => Request): Promise<Response> {
  return library === "authjs"
    ? AuthJs(make(), config as unknown as AuthJsConfig)
    : Auth(make(), config as unknown as AuthConfig)
}

/** What a client sees of a response: status, Location, JSON or text body, and the names of the cookies it sets. */
async function seen(
  res: Response,
): Promise<{ status: number; location: string | null; body: unknown; cookies: string[] }> {
  const text = await res.text()
  let body: unknown = text
  if ((res.headers.get("content-type") ?? "").startsWith("application/json")) body = JSON.parse(text)
  return {
    status: res.status,
    location: res.headers.get("location"),
    body,
    cookies: res.headers.getSetCookie().map((c) => c.split("=")[0]!),
  }
}

/** A CSRF token and its cookie, fetched from the library itself. */
async function csrfOf(library: Library, config: AnyConfig): Promise<{ token: string; cookie: string }> {
  const res = await send(library, config, () => new Request(`${ORIGIN}/auth/csrf`))
  const { csrfToken } = (await res.json()) as { csrfToken: string }
  return {
    token: csrfToken,
    cookie: res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; "),
  }
}

function form(
  path: string,
  fields: Record<string, string>,
  cookie = "",
  headers: Record<string, string> = {},
): Request {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, ...headers },
    body: new URLSearchParams(fields),
  })
}

const base = { secret: SECRET, trustHost: true, basePath: "/auth" }

describe("Credentials without authorize (Auth.js: authorize defaults to returning null)", () => {
  const variants: [string, () => AnyConfig, () => AnyConfig][] = [
    [
      "Credentials({})",
      () => ({ ...base, logger: quiet, providers: [AuthJsCredentials({})] }),
      () => ({ ...base, providers: [Credentials({})] }),
    ],
    [
      "providers: [Credentials] uncalled",
      () => ({ ...base, logger: quiet, providers: [AuthJsCredentials] }),
      () => ({ ...base, providers: [Credentials] }),
    ],
  ]
  for (const [label, authjsConfig, gatehouseConfig] of variants) {
    it(`${label}: /session, /providers and /csrf answer 200 as in Auth.js; a sign-in fails with CredentialsSignin`, async () => {
      const log = spyLogger()
      const configs: Record<Library, AnyConfig> = {
        authjs: authjsConfig(),
        gatehouse: { ...gatehouseConfig(), logger: log.logger },
      }
      for (const path of ["/auth/session", "/auth/providers", "/auth/csrf"]) {
        const a = await seen(await send("authjs", configs.authjs, () => new Request(`${ORIGIN}${path}`)))
        const g = await seen(await send("gatehouse", configs.gatehouse, () => new Request(`${ORIGIN}${path}`)))
        expect(g.status, path).toBe(200)
        expect(a.status, path).toBe(200)
        // The CSRF token is random: compare the body's keys there.
        if (path === "/auth/csrf") expect(Object.keys(g.body as object)).toEqual(Object.keys(a.body as object))
        else expect(g.body, path).toEqual(a.body)
      }
      for (const lib of ["authjs", "gatehouse"] as const) {
        const csrf = await csrfOf(lib, configs[lib])
        const res = await seen(
          await send(lib, configs[lib], () =>
            form(
              "/auth/callback/credentials",
              { csrfToken: csrf.token, username: "alice", password: "pw" },
              csrf.cookie,
            ),
          ),
        )
        expect({ lib, status: res.status, location: res.location }).toEqual({
          lib,
          status: 302,
          location: `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`,
        })
        expect(
          res.cookies.filter((c) => c.includes("session-token")),
          lib,
        ).toEqual([])
      }
      expect(log.types()).toEqual(["CredentialsSignin"])
    })
  }

  it("a credentials provider object without authorize is still MissingAuthorize in both", async () => {
    const raw = { id: "credentials", name: "Credentials", type: "credentials", credentials: {} }
    const log = spyLogger()
    const a = await seen(
      await send("authjs", { ...base, logger: quiet, providers: [raw] }, () => new Request(`${ORIGIN}/auth/session`)),
    )
    const g = await seen(
      await send(
        "gatehouse",
        { ...base, logger: log.logger, providers: [raw] },
        () => new Request(`${ORIGIN}/auth/session`),
      ),
    )
    expect(g).toEqual(a)
    expect(g.status).toBe(500)
    expect(log.types()).toEqual(["MissingAuthorize"])
  })
})

describe("configuration errors answer 500 with exactly Auth.js's body", () => {
  const broken: [string, AnyConfig][] = [
    ["missing secret", { trustHost: true, basePath: "/auth", providers: [] }],
    ["untrusted host", { secret: SECRET, trustHost: false, basePath: "/auth", providers: [] }],
  ]
  const requests: [string, () => Request][] = [
    ["GET /session", () => new Request(`${ORIGIN}/auth/session`)],
    ["GET /csrf", () => new Request(`${ORIGIN}/auth/csrf`)],
    ["GET /providers", () => new Request(`${ORIGIN}/auth/providers`)],
    ["POST /signout", () => form("/auth/signout", { csrfToken: "x" })],
    [
      "POST /callback/credentials (X-Auth-Return-Redirect)",
      () => form("/auth/callback/credentials", { csrfToken: "x" }, "", { "X-Auth-Return-Redirect": "1" }),
    ],
  ]
  for (const [label, config] of broken) {
    it(`${label}: status, content type and body equal to Auth.js's on every non-page route`, async () => {
      for (const [name, make] of requests) {
        const a = await send("authjs", { ...config, logger: quiet }, make)
        const g = await send("gatehouse", { ...config, logger: quiet }, make)
        expect(g.headers.get("content-type"), name).toMatch(/^application\/json/)
        const answer = await seen(g)
        expect(answer, name).toEqual(await seen(a))
        expect(answer.body, name).toEqual({
          message: "There was a problem with the server configuration. Check the server logs for more information.",
        })
      }
    })
  }
})

describe("an unknown provider id is a configuration error, as in Auth.js", () => {
  const configs = (): Record<Library, AnyConfig> => ({
    authjs: { ...base, logger: quiet, providers: [AuthJsGitHub({ clientId: "id", clientSecret: "secret" })] },
    gatehouse: { ...base, logger: quiet, providers: [GitHub({ clientId: "id", clientSecret: "secret" })] },
  })
  // Ids that name Object.prototype members must find nothing either (OA-20: providers are looked up in a Map).
  const ids = ["nope", "__proto__", "constructor", "toString"]

  it("GET and POST /callback/<unknown id>: 302 to /auth/error?error=Configuration, no cookie, in both libraries", async () => {
    const c = configs()
    for (const id of ids) {
      const requests: [string, () => Request][] = [
        ["GET", () => new Request(`${ORIGIN}/auth/callback/${id}?code=c&state=s`)],
        ["POST", () => form(`/auth/callback/${id}`, { code: "c", state: "s" })],
      ]
      for (const [method, make] of requests) {
        const a = await seen(await send("authjs", c.authjs, make))
        const g = await seen(await send("gatehouse", c.gatehouse, make))
        expect(g, `${method} /callback/${id}`).toEqual(a)
        expect(g.status).toBe(302)
        expect(g.location).toBe(`${ORIGIN}/auth/error?error=Configuration`)
        expect(g.cookies).toEqual([])
      }
    }
    expect(Object.prototype).not.toHaveProperty("polluted")
  })

  it("POST /signin/<unknown id>, with or without a valid CSRF token: the same redirect in both", async () => {
    const c = configs()
    for (const id of ids) {
      for (const withCsrf of [true, false]) {
        const results = await Promise.all(
          (["authjs", "gatehouse"] as const).map(async (lib) => {
            const csrf = withCsrf ? await csrfOf(lib, c[lib]) : { token: "", cookie: "" }
            return seen(
              await send(lib, c[lib], () =>
                form(`/auth/signin/${id}`, { csrfToken: csrf.token, callbackUrl: "/" }, csrf.cookie),
              ),
            )
          }),
        )
        const [a, g] = results as [Awaited<ReturnType<typeof seen>>, Awaited<ReturnType<typeof seen>>]
        expect(g, `/signin/${id} csrf=${withCsrf}`).toEqual(a)
        expect(g.location).toBe(`${ORIGIN}/auth/error?error=Configuration`)
      }
    }
  })

  it("with X-Auth-Return-Redirect the error page URL comes back as JSON {url}, as in Auth.js", async () => {
    const c = configs()
    const make = () =>
      new Request(`${ORIGIN}/auth/callback/nope?code=c`, { headers: { "X-Auth-Return-Redirect": "1" } })
    const a = await seen(await send("authjs", c.authjs, make))
    const g = await seen(await send("gatehouse", c.gatehouse, make))
    expect(g.status).toBe(a.status)
    expect(g.body).toEqual(a.body)
    expect(g.body).toEqual({ url: `${ORIGIN}/auth/error?error=Configuration` })
  })

  it("the unknown id is logged as InvalidProvider", async () => {
    const log = spyLogger()
    await Auth(new Request(`${ORIGIN}/auth/callback/nope?code=c`), {
      ...base,
      logger: log.logger,
      providers: [GitHub({ clientId: "id", clientSecret: "s" })],
    } as AuthConfig)
    expect(log.types()).toEqual(["InvalidProvider"])
  })
})
