// gatehouse/solid-start beside @auth/solid-start 0.19.2: the same requests through both route handlers (as SolidStart
// calls them, with an APIEvent) compared by status, Location, Set-Cookie names and attributes, and body: providers,
// csrf, credentials sign-in (right and wrong password), the CSRF check, session, sign-out, getSession. The oracle gets
// `basePath: "/api/auth"`, without which its documented config answers 400 (tested below, Gatehouse passing it); the
// session cookie one mints is a session in the other.
import AuthJsCredentials from "@auth/core/providers/credentials"
import { getSession as authjsGetSession, SolidAuth as AuthJsSolidAuth } from "@auth/solid-start"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getSession, SolidAuth, type SolidAuthConfig } from "../../src/integrations/solid-start.js"
import Credentials from "../../src/providers/credentials.js"
import { CookieJar, isDeletion, isSessionCookieName, setCookieList } from "../support/cookies.js"
import { isolateEnv } from "../support/env.js"
import { spyLogger } from "../support/logger.js"

const ORIGIN = "http://localhost:3000"
const SECRET = "solid-start-test-secret-0123456789abcdefghijkl"

const fields = { username: { label: "Username" }, password: { label: "Password", type: "password" } }
const alice = { id: "user-1", name: "Alice", email: "alice@example.com" }
const authorize = async (c: Partial<Record<string, unknown>>) =>
  c.username === "alice" && c.password === "password" ? { ...alice } : null
const quiet = { error() {}, warn() {}, debug() {} }

/** SolidStart's documented config: no basePath (the route file's folder, /api/auth, is the prefix). */
function gatehouseConfig(extra: Partial<SolidAuthConfig> = {}): SolidAuthConfig {
  return { providers: [Credentials({ credentials: fields, authorize: authorize as never })], logger: quiet, ...extra }
}

function authjsConfig(extra: Record<string, unknown> = {}) {
  return { providers: [AuthJsCredentials({ credentials: fields, authorize })], logger: quiet, ...extra }
}

type Handler = (request: Request) => Promise<Response | undefined>
type Lib = "authjs" | "gatehouse"

interface Door {
  onGet: Handler
  onPost: Handler
  getSession: (request: Request) => Promise<unknown>
}

/** The two route handlers as SolidStart calls them (an APIEvent; only `request` and `clientAddress` are read). */
function doors(): Record<Lib, Door> {
  const gConfig = gatehouseConfig()
  const g = SolidAuth(gConfig)
  // The workaround @auth/solid-start needs: without basePath it parses paths under @auth/core's /auth.
  const aConfig = authjsConfig({ basePath: "/api/auth" })
  const a = AuthJsSolidAuth(aConfig as never)
  return {
    gatehouse: {
      onGet: (request) => g.GET({ request, clientAddress: "127.0.0.1" }),
      onPost: (request) => g.POST({ request, clientAddress: "127.0.0.1" }),
      getSession: (request) => getSession(request, gConfig),
    },
    authjs: {
      onGet: (request) => a.GET({ request }),
      onPost: (request) => a.POST({ request }),
      getSession: (request) => authjsGetSession(request, aConfig as never),
    },
  }
}

function get(path: string, cookie = "", headers: Record<string, string> = {}): Request {
  const h = new Headers(headers)
  if (cookie) h.set("cookie", cookie)
  return new Request(`${ORIGIN}${path}`, { headers: h })
}

function post(path: string, form: Record<string, string>, cookie = "", headers: Record<string, string> = {}): Request {
  const h = new Headers(headers)
  h.set("content-type", "application/x-www-form-urlencoded")
  if (cookie) h.set("cookie", cookie)
  return new Request(`${ORIGIN}${path}`, { method: "POST", headers: h, body: new URLSearchParams(form).toString() })
}

async function answered(res: Response | undefined): Promise<Response> {
  expect(res, "the handler answered").toBeInstanceOf(Response)
  return res!
}

/**
 * What a browser keeps of each Set-Cookie: the name, whether it sets or deletes, and the attributes but the date.
 * Auth.js writes the callback-url cookie on every request; Gatehouse only when an OAuth sign-in leaves the site (a
 * deliberate difference, docs/differences.md), so that cookie is left out of the comparison.
 */
function cookieShape(res: Response) {
  return setCookieList(res)
    .filter((c) => c.name !== "authjs.callback-url")
    .map((c) => {
      const { expires, ...attrs } = c.attrs
      // Gatehouse's session cookie also carries Max-Age (docs/differences.md, CK-10): checked on its own below.
      if (isSessionCookieName(c.name) && !isDeletion(c)) delete attrs["max-age"]
      return { name: c.name, deletes: isDeletion(c), attrs, expires: expires !== undefined }
    })
    .sort((x, y) => x.name.localeCompare(y.name))
}

/** Status, Location, cookies and body of one response, for comparing the two libraries. */
async function summary(res: Response, body: "json" | "text" | "none" = "none") {
  return {
    status: res.status,
    location: res.headers.get("location"),
    cookies: cookieShape(res),
    ...(body === "json" ? { body: await res.json() } : body === "text" ? { body: await res.text() } : {}),
  }
}

async function csrf(door: Door, jar: CookieJar): Promise<{ token: string; res: Response }> {
  const res = await answered(await door.onGet(get("/api/auth/csrf", jar.header())))
  jar.store(res)
  return { token: ((await res.clone().json()) as { csrfToken: string }).csrfToken, res }
}

async function signIn(door: Door, password = "password", headers: Record<string, string> = {}) {
  const jar = new CookieJar()
  const { token } = await csrf(door, jar)
  const res = await answered(
    await door.onPost(
      post(
        "/api/auth/callback/credentials",
        { csrfToken: token, username: "alice", password, callbackUrl: `${ORIGIN}/protected` },
        jar.header(),
        headers,
      ),
    ),
  )
  jar.store(res)
  return { jar, res, token }
}

function sessionCookie(jar: CookieJar): string {
  return [...jar.cookies]
    .filter(([name]) => isSessionCookieName(name))
    .map(([name, value]) => `${name}=${value}`)
    .join("; ")
}

let restoreEnv: () => void
let both: Record<Lib, Door>
beforeAll(() => {
  restoreEnv = isolateEnv()
  // Both read the secret from process.env (@auth/solid-start when SolidAuth is called, Gatehouse on first use).
  process.env.AUTH_SECRET = SECRET
  both = doors()
})
afterAll(() => restoreEnv())

const LIBS: Lib[] = ["authjs", "gatehouse"]

/** Runs `run` for both libraries: [Auth.js's result, Gatehouse's]. */
async function pair<T>(run: (lib: Lib) => Promise<T>): Promise<[T, T]> {
  return [await run("authjs"), await run("gatehouse")]
}

describe("gatehouse/solid-start answers as @auth/solid-start does", () => {
  it("GET /api/auth/providers: the same list, URLs under /api/auth", async () => {
    const [a, g] = await pair(async (lib) =>
      summary(await answered(await both[lib].onGet(get("/api/auth/providers"))), "json"),
    )
    expect(g).toEqual(a)
    expect(g.status).toBe(200)
    expect(g.body).toMatchObject({ credentials: { signinUrl: `${ORIGIN}/api/auth/signin/credentials` } })
  })

  it("GET /api/auth/csrf: a token and the csrf cookie with the same attributes", async () => {
    const [a, g] = await pair(async (lib) => {
      const { token, res } = await csrf(both[lib], new CookieJar())
      expect(token).toMatch(/^[0-9a-f]{64}$/)
      return summary(res)
    })
    expect(g).toEqual(a)
    expect(g.cookies.map((c) => c.name)).toEqual(["authjs.csrf-token"])
  })

  it("credentials sign-in: 302 to the callbackUrl with the session cookie, the same cookies", async () => {
    const [a, g] = await pair(async (lib) => summary((await signIn(both[lib])).res))
    expect(g).toEqual(a)
    expect(g.status).toBe(302)
    expect(g.location).toBe(`${ORIGIN}/protected`)
    expect(g.cookies).toContainEqual(
      expect.objectContaining({ name: "authjs.session-token", deletes: false, expires: true }),
    )
    const ours = setCookieList((await signIn(both.gatehouse)).res).find((c) => c.name === "authjs.session-token")
    expect(ours?.attrs["max-age"]).toBe(String(30 * 24 * 60 * 60))
  })

  it("a wrong password: the same redirect to the sign-in page with error=CredentialsSignin (and the callbackUrl sent), no session cookie", async () => {
    const [a, g] = await pair(async (lib) => summary((await signIn(both[lib], "wrong")).res))
    // Gatehouse hands the form's callbackUrl back to the page (docs/differences.md), where Auth.js's cookie keeps it.
    expect(a.location).toBe(`${ORIGIN}/api/auth/signin?error=CredentialsSignin&code=credentials`)
    expect(g.location).toBe(`${a.location}&callbackUrl=${encodeURIComponent(`${ORIGIN}/protected`)}`)
    expect({ ...g, location: a.location }).toEqual(a)
    expect(g.cookies.filter((c) => isSessionCookieName(c.name))).toEqual([])
  })

  it("the CSRF check stays on: a sign-in without the token is refused the same way", async () => {
    const [a, g] = await pair(async (lib) => {
      const res = await answered(
        await both[lib].onPost(post("/api/auth/callback/credentials", { username: "alice", password: "password" })),
      )
      return summary(res)
    })
    expect(g).toEqual(a)
    expect(g.location).toMatch(/\/api\/auth\/signin\?error=MissingCSRF$/)
    expect(g.cookies.filter((c) => isSessionCookieName(c.name))).toEqual([])
  })

  it("X-Auth-Return-Redirect (the client's sign-in) answers { url } as JSON", async () => {
    const [a, g] = await pair(async (lib) =>
      summary((await signIn(both[lib], "password", { "x-auth-return-redirect": "1" })).res, "json"),
    )
    expect(g).toEqual(a)
    expect(g.body).toEqual({ url: `${ORIGIN}/protected` })
  })

  it("GET /api/auth/session and getSession: the signed-in user, the same from both", async () => {
    const sessions = await pair(async (lib) => {
      const { jar } = await signIn(both[lib])
      const res = await answered(await both[lib].onGet(get("/api/auth/session", jar.header())))
      const body = (await res.json()) as { user: unknown; expires: string }
      const read = await both[lib].getSession(get("/protected", jar.header()))
      return { status: res.status, user: body.user, read }
    })
    const [a, g] = sessions
    expect(g.status).toBe(a.status)
    expect(g.user).toEqual(a.user)
    expect(g.user).toEqual({ name: "Alice", email: "alice@example.com" })
    expect(g.read).toMatchObject({ user: g.user })
    expect((g.read as { user: unknown }).user).toEqual((a.read as { user: unknown }).user)
  })

  it("signed out: /session answers null and getSession null, on both", async () => {
    for (const lib of LIBS) {
      const res = await answered(await both[lib].onGet(get("/api/auth/session")))
      expect(await res.json(), lib).toBeNull()
      expect(await both[lib].getSession(get("/")), lib).toBeNull()
    }
  })

  it("sign-out: the same redirect and the session cookie cleared", async () => {
    const [a, g] = await pair(async (lib) => {
      const { jar } = await signIn(both[lib])
      const { token } = await csrf(both[lib], jar)
      const res = await answered(
        await both[lib].onPost(
          post("/api/auth/signout", { csrfToken: token, callbackUrl: `${ORIGIN}/` }, jar.header()),
        ),
      )
      jar.store(res)
      expect(sessionCookie(jar), lib).toBe("")
      return summary(res)
    })
    expect(g).toEqual(a)
    expect(g.location).toBe(`${ORIGIN}/`)
    expect(g.cookies).toContainEqual(expect.objectContaining({ name: "authjs.session-token", deletes: true }))
  })

  it("HEAD (which SolidStart hands to GET) is answered like the GET, without a body", async () => {
    const { GET } = SolidAuth(gatehouseConfig())
    const res = await answered(await GET({ request: new Request(`${ORIGIN}/api/auth/providers`, { method: "HEAD" }) }))
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toMatch(/^application\/json/)
    expect(await res.text()).toBe("")
  })

  it("a path outside the prefix is not the route's: both answer undefined", async () => {
    for (const lib of LIBS) expect(await both[lib].onGet(get("/api/other/session")), lib).toBeUndefined()
  })
})

describe("SolidStart's documented config (no basePath)", () => {
  it("@auth/solid-start answers 400 and its getSession throws; gatehouse/solid-start works", async () => {
    const documented = authjsConfig()
    const a = AuthJsSolidAuth(documented as never)
    const res = await answered(await a.GET({ request: get("/api/auth/providers") }))
    expect(res.status).toBe(400)
    await expect(authjsGetSession(get("/"), documented as never)).rejects.toThrow()

    const config = gatehouseConfig()
    const g = SolidAuth(config)
    const ours = await answered(await g.GET({ request: get("/api/auth/providers") }))
    expect(ours.status).toBe(200)
    expect(await ours.json()).toMatchObject({ credentials: { callbackUrl: `${ORIGIN}/api/auth/callback/credentials` } })
    const door: Door = {
      onGet: (request) => g.GET({ request }),
      onPost: (request) => g.POST({ request }),
      getSession: (request) => getSession(request, config),
    }
    const { jar } = await signIn(door)
    expect(await getSession(get("/", jar.header()), config)).toMatchObject({ user: { name: "Alice" } })
  })

  it("prefix moves the routes and every URL with them; the user's config object is left as it was", async () => {
    const config = gatehouseConfig({ prefix: "/auth-x/" })
    const before = { ...config }
    const g = SolidAuth(config)
    expect(await g.GET({ request: get("/api/auth/providers") })).toBeUndefined()
    const res = await answered(await g.GET({ request: get("/auth-x/providers") }))
    expect(await res.json()).toMatchObject({ credentials: { signinUrl: `${ORIGIN}/auth-x/signin/credentials` } })
    expect(config).toEqual(before)
  })

  it("without a prefix, AUTH_URL's path is the basePath (as in every Gatehouse front door)", async () => {
    process.env.AUTH_URL = `${ORIGIN}/custom/auth`
    try {
      const g = SolidAuth(gatehouseConfig())
      const res = await answered(await g.GET({ request: get("/custom/auth/providers") }))
      expect(await res.json()).toMatchObject({ credentials: { signinUrl: `${ORIGIN}/custom/auth/signin/credentials` } })
    } finally {
      delete process.env.AUTH_URL
    }
  })

  it("a broken config (no secret) answers the configuration error and getSession throws it, logged once", async () => {
    delete process.env.AUTH_SECRET
    try {
      const log = spyLogger()
      const config = gatehouseConfig({ logger: log.logger })
      const g = SolidAuth(config)
      const res = await answered(await g.GET({ request: get("/api/auth/session") }))
      expect(res.status).toBe(500)
      expect(await res.json()).toMatchObject({ message: expect.stringContaining("server configuration") })
      await expect(getSession(get("/"), config)).rejects.toMatchObject({ type: "MissingSecret" })
      expect(log.types().filter((t) => t === "MissingSecret")).toHaveLength(1)
    } finally {
      process.env.AUTH_SECRET = SECRET
    }
  })
})

describe("cookie carry-over from @auth/solid-start", () => {
  it("a session cookie @auth/solid-start minted (same secret) is a session in Gatehouse's getSession and /session", async () => {
    const { jar } = await signIn(both.authjs)
    const cookie = sessionCookie(jar)
    expect(cookie).toMatch(/^authjs\.session-token=/)
    expect(await both.gatehouse.getSession(get("/", cookie))).toMatchObject({
      user: { name: "Alice", email: alice.email },
    })
    const res = await answered(await both.gatehouse.onGet(get("/api/auth/session", cookie)))
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ user: { name: "Alice", email: alice.email } })
  })

  it("and the other way: Gatehouse's cookie reads in @auth/solid-start's getSession", async () => {
    const { jar } = await signIn(both.gatehouse)
    expect(await both.authjs.getSession(get("/", sessionCookie(jar)))).toMatchObject({ user: { name: "Alice" } })
  })
})
