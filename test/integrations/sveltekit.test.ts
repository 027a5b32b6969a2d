// gatehouse/sveltekit against @auth/sveltekit 1.11.3 (the oracle): the same SvelteKit-shaped request events through
// both `handle` hooks and form actions, compared on status, Location, cookies and bodies. SvelteKit's virtual modules
// are test stand-ins (vitest.config.ts aliases them to test/support/sveltekit/), shared by both.
import OracleCredentials from "@auth/core/providers/credentials"
import OracleGitHub from "@auth/core/providers/github"
import { SvelteKitAuth as OracleKitAuth } from "@auth/sveltekit"
import type { Handle } from "@sveltejs/kit"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import Credentials from "../../src/providers/credentials.js"
import GitHub from "../../src/providers/github.js"
import { SvelteKitAuth, type SvelteKitAuthConfig } from "../../src/integrations/sveltekit/index.js"
import { setDev } from "../support/sveltekit/environment.js"
import { setPrivateEnv } from "../support/sveltekit/env.js"
import { setBase } from "../support/sveltekit/paths.js"
import {
  cookieHeader,
  cookieShapes,
  formPost,
  get,
  ORIGIN,
  type Outcome,
  runAction,
  runHandle,
} from "./sveltekit-kit.js"

const SECRET = "sveltekit-test-secret-0123456789abcdef"
const ALICE = { id: "u-1", name: "Alice", email: "alice@example.com" }

async function authorize(credentials: Partial<Record<string, unknown>>) {
  return credentials.username === "alice" && credentials.password === "wonderland" ? ALICE : null
}

const fields = { username: { label: "Username" }, password: { label: "Password", type: "password" } }

/** Gatehouse's SvelteKitAuth on a fresh config object. */
function gatehouse(extra: Partial<SvelteKitAuthConfig> = {}) {
  return SvelteKitAuth({
    secret: SECRET,
    providers: [
      Credentials({ credentials: fields, authorize }),
      GitHub({ clientId: "gh-id", clientSecret: "gh-secret" }),
    ],
    ...extra,
  })
}

/** @auth/sveltekit's on an equal config (its own providers; it changes the object it gets, so a fresh one). */
function oracle(extra: Record<string, unknown> = {}) {
  return OracleKitAuth({
    secret: SECRET,
    providers: [
      OracleCredentials({ credentials: fields, authorize }),
      OracleGitHub({ clientId: "gh-id", clientSecret: "gh-secret" }),
    ],
    ...extra,
  })
}

type Kit = ReturnType<typeof gatehouse>

const both = (): [Kit, Kit] => [gatehouse(), oracle() as unknown as Kit]

/** The session cookie's name and attributes, less its lifetime (Expires, and the Max-Age only Gatehouse adds). */
function sessionCookie(outcome: Outcome) {
  const shape = cookieShapes(outcome.cookies).find((c) => c.name === "authjs.session-token")
  if (shape) delete shape.attributes["max-age"]
  return shape
}

function withoutExpires(body: string): unknown {
  const parsed = JSON.parse(body) as Record<string, unknown> | null
  if (parsed && typeof parsed === "object") delete parsed.expires
  return parsed
}

/** The same request through both hooks (a fresh Request each). */
async function onBoth([gk, ok]: [Kit, Kit], request: () => Request) {
  return Promise.all([runHandle(gk.handle, request()), runHandle(ok.handle, request())])
}

/** Signs alice in through the credentials form action; the outcome and the Cookie header the browser then sends. */
async function signInAlice(kit: Kit, password = "wonderland"): Promise<{ outcome: Outcome; cookie: string }> {
  const outcome = await runAction(
    kit.handle,
    kit.signIn,
    formPost("/signin", { providerId: "credentials", username: "alice", password, redirectTo: "/dashboard" }),
  )
  return { outcome, cookie: cookieHeader(outcome.cookies) }
}

beforeEach(() => {
  setDev(true)
  setBase("")
})

afterEach(() => {
  setPrivateEnv({})
})

describe("gatehouse/sveltekit answers as @auth/sveltekit", () => {
  it("GET /auth/providers: the same providers", async () => {
    const [g, o] = await onBoth(both(), () => get("/auth/providers"))
    expect(g.status).toBe(200)
    expect(g.status).toBe(o.status)
    expect(JSON.parse(g.body)).toEqual(JSON.parse(o.body))
    expect(JSON.parse(g.body).github.signinUrl).toBe(`${ORIGIN}/auth/signin/github`)
  })

  it("GET /auth/signin: the built-in page with each provider", async () => {
    const [g, o] = await onBoth(both(), () => get("/auth/signin"))
    expect(g.status).toBe(o.status)
    expect(g.contentType).toMatch(/^text\/html/)
    for (const page of [g.body, o.body]) {
      expect(page).toContain("Sign in with GitHub")
      expect(page).toContain('name="password"')
    }
  })

  it("GET /auth/csrf: 404, as CSRF is left to SvelteKit's origin check", async () => {
    const [g, o] = await onBoth(both(), () => get("/auth/csrf"))
    expect(o.status).toBe(404)
    expect(g.status).toBe(o.status)
  })

  it("other paths, under /auth too, go on to the app's routes", async () => {
    for (const path of ["/", "/auth", "/auth/not-an-action", "/authx/session"]) {
      const [g, o] = await onBoth(both(), () => get(path))
      expect(g.body, path).toBe("app")
      expect(o.body, path).toBe("app")
    }
  })

  it("credentials sign-in through the form action: the same redirect and cookies, then the same session", async () => {
    const [gk, ok] = both()
    const [g, o] = await Promise.all([signInAlice(gk), signInAlice(ok)])
    expect(g.outcome.status).toBe(302)
    expect(g.outcome.status).toBe(o.outcome.status)
    expect(g.outcome.location).toBe(o.outcome.location)
    expect(g.outcome.location).toBe(`${ORIGIN}/dashboard`)
    // Deliberate differences (docs/differences.md): Max-Age beside Expires, and no callback-url cookie for a sign-in
    // that does not leave the site.
    expect(sessionCookie(g.outcome)).toEqual(sessionCookie(o.outcome))
    expect(sessionCookie(g.outcome)).toEqual({
      name: "authjs.session-token",
      attributes: { httponly: true, path: "/", samesite: "lax" },
    })
    expect(g.outcome.cookies.map((c) => c.name)).toEqual(["authjs.session-token"])
    expect(o.outcome.cookies.map((c) => c.name).sort()).toEqual(["authjs.callback-url", "authjs.session-token"])

    const [gs, os] = await Promise.all([
      runHandle(gk.handle, get("/auth/session", { cookie: g.cookie })),
      runHandle(ok.handle, get("/auth/session", { cookie: o.cookie })),
    ])
    expect(gs.status).toBe(200)
    expect(withoutExpires(gs.body)).toEqual(withoutExpires(os.body))
    expect(withoutExpires(gs.body)).toEqual({ user: { name: "Alice", email: "alice@example.com" } })

    const [gl, ol] = await Promise.all([
      runHandle(gk.handle, get("/dashboard", { cookie: g.cookie })),
      runHandle(ok.handle, get("/dashboard", { cookie: o.cookie })),
    ])
    const [ga, oa] = await Promise.all([gl.event.locals.auth(), ol.event.locals.auth()])
    expect(ga?.user).toEqual(oa?.user)
    expect(ga?.user?.email).toBe("alice@example.com")
    expect(await gl.event.locals.getSession()).toEqual(ga)
  })

  it("a wrong password: the same answer, and no session cookie", async () => {
    const [gk, ok] = both()
    const settle = (p: Promise<unknown>) =>
      p.then(
        (value) => ({ value }),
        (error: Error) => ({ error: error.name }),
      )
    const [g, o] = await Promise.all([settle(signInAlice(gk, "nope")), settle(signInAlice(ok, "nope"))])
    const view = (r: { value?: unknown; error?: string }) =>
      "error" in r
        ? r
        : {
            status: (r.value as { outcome: Outcome }).outcome.status,
            location: (r.value as { outcome: Outcome }).outcome.location,
            session: (r.value as { cookie: string }).cookie.includes("session-token"),
          }
    expect(view(g)).toEqual(view(o))
    if ("value" in g) expect((g.value as { cookie: string }).cookie).not.toContain("session-token")
  })

  it("a session cookie @auth/sveltekit minted is a session in gatehouse/sveltekit (locals.auth and /auth/session)", async () => {
    const { cookie } = await signInAlice(oracle() as unknown as Kit)
    const kit = gatehouse()
    const page = await runHandle(kit.handle, get("/dashboard", { cookie }))
    expect((await page.event.locals.auth())?.user).toEqual({ name: "Alice", email: "alice@example.com" })
    const session = await runHandle(kit.handle, get("/auth/session", { cookie }))
    expect(withoutExpires(session.body)).toEqual({ user: { name: "Alice", email: "alice@example.com" } })
  })

  it("sign-out through the form action: the same redirect, the session cookie cleared", async () => {
    const [gk, ok] = both()
    const [gi, oi] = await Promise.all([signInAlice(gk), signInAlice(ok)])
    const out = (kit: Kit, cookie: string) =>
      runAction(kit.handle, kit.signOut, formPost("/signout", { redirectTo: "/bye" }, { cookie }))
    const [g, o] = await Promise.all([out(gk, gi.cookie), out(ok, oi.cookie)])
    expect(g.status).toBe(302)
    expect([g.status, g.location]).toEqual([o.status, o.location])
    expect(g.location).toBe(`${ORIGIN}/bye`)
    const cleared = (outcome: Outcome) =>
      outcome.cookies.some(
        (c) => c.name === "authjs.session-token" && (c.value === "" || c.attributes["max-age"] === "0"),
      )
    expect(cleared(g)).toBe(true)
    expect(cleared(o)).toBe(true)
    const after = await runHandle(gk.handle, get("/dashboard", { cookie: cookieHeader(g.cookies, gi.cookie) }))
    expect(await after.event.locals.auth()).toBeNull()
  })

  it("the form action's fields: providerId, redirectTo and authorizationParams-* reach the OAuth redirect", async () => {
    const [gk, ok] = both()
    const form = { providerId: "github", redirectTo: "/after", "authorizationParams-prompt": "consent" }
    const [g, o] = await Promise.all([
      runAction(gk.handle, gk.signIn, formPost("/signin", form)),
      runAction(ok.handle, ok.signIn, formPost("/signin", form)),
    ])
    expect(g.status).toBe(302)
    expect(g.status).toBe(o.status)
    const gl = new URL(g.location!)
    const ol = new URL(o.location!)
    expect(gl.origin + gl.pathname).toBe(ol.origin + ol.pathname)
    expect(gl.searchParams.get("prompt")).toBe("consent")
    expect(ol.searchParams.get("prompt")).toBe("consent")
    expect(gl.searchParams.get("redirect_uri")).toBe(ol.searchParams.get("redirect_uri"))
    expect(gl.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/github`)
    expect(cookieShapes(g.cookies).map((c) => c.name)).toEqual(cookieShapes(o.cookies).map((c) => c.name))
    const callbackCookie = g.cookies.find((c) => c.name === "authjs.callback-url")
    expect(callbackCookie?.value).toBe(o.cookies.find((c) => c.name === "authjs.callback-url")?.value)
  })

  it("no providerId: to the sign-in page with the callback URL", async () => {
    const [gk, ok] = both()
    const form = { redirectTo: "/later" }
    const [g, o] = await Promise.all([
      runAction(gk.handle, gk.signIn, formPost("/signin", form)),
      runAction(ok.handle, ok.signIn, formPost("/signin", form)),
    ])
    expect([g.status, g.location]).toEqual([o.status, o.location])
    expect(g.location).toBe(`${ORIGIN}/auth/signin?callbackUrl=%2Flater`)
  })

  it("a POST to the auth routes needs no CSRF token (SvelteKit's origin check is the defence), as in @auth/sveltekit", async () => {
    const [gk, ok] = both()
    const [gi, oi] = await Promise.all([signInAlice(gk), signInAlice(ok)])
    const post = (kit: Kit, cookie: string) =>
      runHandle(kit.handle, formPost("/auth/signout", { callbackUrl: "/x" }, { cookie }))
    const [g, o] = await Promise.all([post(gk, gi.cookie), post(ok, oi.cookie)])
    expect([g.status, g.location]).toEqual([o.status, o.location])
    expect(g.status).toBe(302)
  })

  it("basePath is paths.base + /auth whatever the config says", async () => {
    setBase("/app")
    const kit = gatehouse({ basePath: "/elsewhere" })
    const under = await runHandle(kit.handle, get("/app/auth/providers"))
    expect(under.status).toBe(200)
    expect(JSON.parse(under.body).github.callbackUrl).toBe(`${ORIGIN}/app/auth/callback/github`)
    expect((await runHandle(kit.handle, get("/elsewhere/providers"))).body).toBe("app")
  })
})

describe("trusting the Host in a production build (next-auth #12284)", () => {
  it("AUTH_TRUST_HOST is honoured when `dev` is false; @auth/sveltekit ignores it", async () => {
    setDev(false)
    setPrivateEnv({ AUTH_TRUST_HOST: "true" })
    const [g, o] = await onBoth(both(), () => get("/auth/providers"))
    expect(g.status).toBe(200)
    expect(JSON.parse(g.body).github.signinUrl).toBe(`${ORIGIN}/auth/signin/github`)
    expect(o.status).toBe(500)
  })

  it("without AUTH_TRUST_HOST or AUTH_URL, a production build refuses the Host, as @auth/sveltekit does", async () => {
    setDev(false)
    const [g, o] = await onBoth(both(), () => get("/auth/providers"))
    expect(g.status).toBe(o.status)
    expect(g.status).toBe(500)
  })

  it("AUTH_URL gives the origin in production; @auth/sveltekit still wants trustHost there", async () => {
    setDev(false)
    setPrivateEnv({ AUTH_URL: "https://app.example.com" })
    const [g, o] = await onBoth(both(), () => get("/auth/providers"))
    expect(g.status).toBe(200)
    expect(JSON.parse(g.body).github.signinUrl).toBe("https://app.example.com/auth/signin/github")
    expect(o.status).toBe(500)
  })

  it("with trustHost: true in the config, production builds agree", async () => {
    setDev(false)
    const kits = [gatehouse({ trustHost: true }), oracle({ trustHost: true }) as unknown as Kit]
    const [g, o] = await onBoth(kits as [Kit, Kit], () => get("/auth/providers"))
    expect(g.status).toBe(200)
    expect(JSON.parse(g.body)).toEqual(JSON.parse(o.body))
  })
})

describe("locals.signIn and locals.signOut (declared by @auth/sveltekit's types; gatehouse/sveltekit sets them)", () => {
  it("signs in from server code and resolves to the URL with redirect: false", async () => {
    const kit = gatehouse()
    const page = await runHandle(kit.handle as Handle, get("/dashboard"))
    const url = await page.event.locals.signIn("credentials", {
      username: "alice",
      password: "wonderland",
      redirectTo: "/home",
      redirect: false,
    })
    expect(url).toBe(`${ORIGIN}/home`)
  })
})
