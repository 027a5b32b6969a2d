// gatehouse/qwik's server side without a build (the handlers index.ts wraps in Qwik City's actions and loader), on
// request events shaped as Qwik City's: the session read from a cookie @auth/core minted under @auth/qwik's config
// (users stay signed in when the app switches), the auth routes through the pipeline with the CSRF check on, and the
// sign-in and sign-out actions. qwik-app.test.ts runs the same through a real Qwik City build in Chromium.
import { Auth as OracleAuth, skipCSRFCheck as oracleSkipCSRF } from "@auth/core"
import OracleCredentials from "@auth/core/providers/credentials"
import { describe, expect, it } from "vitest"
import {
  onRequestFor,
  type QwikAuthConfig,
  type QwikCookieOptions,
  type QwikEvent,
  signInFor,
  signOutFor,
} from "../../src/integrations/qwik/handlers.js"
import Credentials from "../../src/providers/credentials.js"

const ORIGIN = "http://127.0.0.1:5173"
const SECRET = "qwik-unit-test-secret-0123456789abcdefgh"
const DEMO = { id: "1", name: "Demo User", email: "demo@example.com" }
const fields = { username: { label: "Username" }, password: { label: "Password", type: "password" } }

async function authorize(credentials: Partial<Record<string, unknown>>) {
  return credentials.username === "demo" && credentials.password === "demo" ? DEMO : null
}

function config(): QwikAuthConfig {
  return { secret: SECRET, trustHost: true, providers: [Credentials({ credentials: fields, authorize })] }
}

class Thrown {
  constructor(readonly kind: "send" | "redirect") {}
}

/** A request event as Qwik City makes one, recording what the handlers send, redirect to and put in the cookie jar. */
function event(path: string, init: RequestInit = {}) {
  const jar: { name: string; value: string; options: QwikCookieOptions }[] = []
  const out: { sent?: Response; redirect?: { status: number; url: string } } = {}
  const ev: QwikEvent = {
    request: new Request(`${ORIGIN}${path}`, init),
    url: new URL(`${ORIGIN}${path}`),
    env: { get: () => undefined },
    sharedMap: new Map(),
    headers: new Headers(),
    cookie: { append: (name, value, options) => jar.push({ name, value, options }) },
    send: (response) => {
      out.sent = response
      return new Thrown("send")
    },
    redirect: (status, url) => {
      out.redirect = { status, url }
      return new Thrown("redirect")
    },
  }
  return { ev, jar, out }
}

/** Runs a handler that ends by throwing Qwik's send/redirect marker, as Qwik City's handlers do. */
async function settle(run: Promise<void>): Promise<void> {
  try {
    await run
  } catch (thrown) {
    if (!(thrown instanceof Thrown)) throw thrown
  }
}

/** A session cookie from @auth/core 0.41.3 under @auth/qwik's config (basePath /auth, its CSRF check off). */
async function oracleSessionCookie(): Promise<string> {
  const body = new URLSearchParams({ username: "demo", password: "demo", callbackUrl: `${ORIGIN}/` })
  const response = await OracleAuth(
    new Request(`${ORIGIN}/auth/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
    }),
    {
      secret: SECRET,
      trustHost: true,
      basePath: "/auth",
      skipCSRFCheck: oracleSkipCSRF,
      providers: [OracleCredentials({ credentials: fields, authorize })],
    },
  )
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("authjs.session-token="))
  if (!cookie) throw new Error(`@auth/core set no session cookie (${response.status})`)
  return cookie.split(";")[0]!
}

describe("gatehouse/qwik handlers", () => {
  it("reads a session cookie @auth/core minted under @auth/qwik's config into sharedMap('session')", async () => {
    const cookie = await oracleSessionCookie()
    const { ev } = event("/", { headers: { cookie } })
    await onRequestFor(config(), ev)
    const session = ev.sharedMap.get("session") as { user?: { name?: string; email?: string } } | null
    expect(session?.user).toMatchObject({ name: DEMO.name, email: DEMO.email })
  })

  it("puts null in sharedMap('session') for a request without a session cookie", async () => {
    const { ev, jar } = event("/")
    await onRequestFor(config(), ev)
    expect(ev.sharedMap.get("session")).toBeNull()
    expect(jar).toEqual([])
  })

  it("answers /auth/csrf through the pipeline with the CSRF cookie in Qwik's jar", async () => {
    const { ev, jar, out } = event("/auth/csrf")
    await settle(onRequestFor(config(), ev))
    expect(out.sent?.status).toBe(200)
    expect(Object.keys(await out.sent!.json())).toEqual(["csrfToken"])
    expect(jar.map((c) => c.name)).toEqual(["authjs.csrf-token"])
    expect(jar[0]!.options).toMatchObject({ httpOnly: true, path: "/", sameSite: "lax" })
  })

  it("CS-07 refuses a cross-site credentials post to /auth/callback/credentials without a token (login CSRF)", async () => {
    const body = new URLSearchParams({ username: "demo", password: "demo" })
    const { ev, jar, out } = event("/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://attacker.test" },
      body,
    })
    await settle(onRequestFor(config(), ev))
    expect(out.sent?.status).toBe(403)
    expect(jar.map((c) => c.name)).not.toContain("authjs.session-token")
  })

  it("leaves paths under /auth that are no auth action to the app, with the session read", async () => {
    const { ev, out } = event("/auth/custom-page")
    await onRequestFor(config(), ev)
    expect(out.sent).toBeUndefined()
    expect(ev.sharedMap.has("session")).toBe(true)
  })

  it("a broken config: the auth routes answer its error page (500), a page request throws its AuthError", async () => {
    const broken = { ...config(), secret: "short" }
    const route = event("/auth/session")
    await settle(onRequestFor(broken, route.ev))
    expect(route.out.sent?.status).toBe(500)
    await expect(onRequestFor(broken, event("/").ev)).rejects.toMatchObject({ type: "MissingSecret" })
  })

  it("useSignIn: credentials sign in with a CSRF token fetched in-process, then redirect to options.redirectTo as a path", async () => {
    const { ev, jar, out } = event("/?qaction=x", { method: "POST", headers: { origin: ORIGIN } })
    await settle(
      signInFor(
        config(),
        { providerId: "credentials", options: { redirectTo: "/protected/", username: "demo", password: "demo" } },
        ev,
      ),
    )
    expect(out.redirect).toEqual({ status: 302, url: "/protected/" })
    expect(jar.map((c) => c.name)).toEqual(["authjs.csrf-token", "authjs.session-token"])

    // The cookie it set is a session for the next request.
    const cookie = jar.map((c) => `${c.name}=${c.value}`).join("; ")
    const next = event("/", { headers: { cookie } })
    await onRequestFor(config(), next.ev)
    expect(next.ev.sharedMap.get("session")).toMatchObject({ user: { name: DEMO.name } })
  })

  it("useSignIn: a wrong password redirects to the sign-in page's CredentialsSignin error and sets no session", async () => {
    const { ev, jar, out } = event("/?qaction=x", { method: "POST", headers: { origin: ORIGIN } })
    await settle(signInFor(config(), { providerId: "credentials", options: { username: "demo", password: "x" } }, ev))
    expect(out.redirect?.url).toMatch(/^\/auth\/signin\?error=CredentialsSignin/)
    expect(jar.map((c) => c.name)).not.toContain("authjs.session-token")
  })

  it("useSignIn without a provider sends the browser to the sign-in page with the callback URL", async () => {
    const { ev, out } = event("/page?qaction=x", { method: "POST" })
    await settle(signInFor(config(), {}, ev))
    expect(out.redirect).toEqual({
      status: 302,
      url: `/auth/signin?${new URLSearchParams({ callbackUrl: `${ORIGIN}/page` })}`,
    })
  })

  it("useSignOut clears the session cookie and redirects to redirectTo", async () => {
    const cookie = await oracleSessionCookie()
    const { ev, jar, out } = event("/?qaction=y", { method: "POST", headers: { cookie, origin: ORIGIN } })
    await settle(signOutFor(config(), { redirectTo: "/bye" }, ev))
    expect(out.redirect).toEqual({ status: 302, url: "/bye" })
    const cleared = jar.find((c) => c.name === "authjs.session-token")
    expect(cleared).toMatchObject({ value: "", options: { maxAge: 0 } })
  })
})
