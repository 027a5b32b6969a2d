// gatehouse/v4's NextAuth as a pages-router API route (pages/api/auth/[...nextauth].ts) over real node:http, side by
// side with next-auth 4.24.15's own NextAuth under the same Next-like request handling: the same requests give the
// same statuses, JSON bodies and cookie names; the session cookie each writes is one next-auth 4 decodes; and
// getServerSession(req, res, options) in an API route answers the session and writes the re-issued cookie.
import { beforeAll, describe, expect, it } from "vitest"
import NextAuth, { getServerSession } from "../../src/integrations/next-v4/index.js"
import type { Listening } from "../support/listen.js"
import { nextAuthV4Jwt } from "../support/next-auth-v4.js"
import {
  ALICE,
  appAtPublicOrigin,
  Client,
  cookieShape,
  gatehouseOptions,
  nextAuthOptions,
  nextAuthV4Next,
  PUBLIC_ORIGIN,
  serveApiRoutes,
  V4_SECRET,
} from "./kit.js"

const SESSION = "next-auth.session-token"
const CSRF = "next-auth.csrf-token"

const servers = appAtPublicOrigin()

type Impl = "gatehouse" | "next-auth"

/** A server whose /api/auth/* runs `NextAuth(options)` (or, `advanced`, `NextAuth(req, res, options)` per request). */
async function start(impl: Impl, extra: Record<string, unknown> = {}, advanced = false): Promise<Client> {
  let server: Listening
  if (impl === "gatehouse") {
    const options = gatehouseOptions(extra)
    const auth = advanced ? (req: any, res: any) => NextAuth(req, res, options) : NextAuth(options)
    server = await serveApiRoutes(auth, {
      "/api/me": async (req, res) => res.json({ session: await getServerSession(req, res, options) }),
    })
  } else {
    const v4 = nextAuthV4Next()
    const options = nextAuthOptions(extra)
    const auth = advanced ? (req: any, res: any) => v4.NextAuth(req, res, options) : v4.NextAuth(options)
    server = await serveApiRoutes(auth, {
      "/api/me": async (req, res) => res.json({ session: await v4.getServerSession(req, res, options) }),
    })
  }
  servers.push(server)
  return new Client(server.origin)
}

/** One walk through the main flow, recording what a client can observe. */
async function walk(impl: Impl) {
  const client = await start(impl)
  const out: Record<string, unknown> = {}
  const signedOut = await client.fetch("/api/auth/session")
  out.signedOut = [signedOut.status, signedOut.json]
  const providers = await client.fetch("/api/auth/providers")
  out.providers = [providers.status, providers.json]
  const csrf = await client.fetch("/api/auth/csrf")
  // next-auth 4 sets the CSRF cookie on the first request of any action, Gatehouse on /csrf: compare what was set.
  const csrfCookies = [...signedOut.setCookies, ...providers.setCookies, ...csrf.setCookies].filter(
    (c) => c.name === CSRF,
  )
  out.csrf = [csrf.status, Object.keys(csrf.json), cookieShape(csrfCookies)]
  const csrfToken = csrf.json.csrfToken as string
  const wrong = await client.fetch("/api/auth/callback/credentials", {
    form: { csrfToken, username: "alice", password: "nope", json: "true", callbackUrl: `${PUBLIC_ORIGIN}/dashboard` },
  })
  out.wrong = [wrong.status, wrong.json]
  const ok = await client.fetch("/api/auth/callback/credentials", {
    form: {
      csrfToken,
      username: "alice",
      password: "password",
      json: "true",
      callbackUrl: `${PUBLIC_ORIGIN}/dashboard`,
    },
  })
  out.signIn = [ok.status, ok.json, cookieShape(ok.setCookies.filter((c) => c.name !== CSRF))]
  const token = client.cookies.get(SESSION)
  out.token = await nextAuthV4Jwt().decode({ token, secret: V4_SECRET })
  const session = await client.fetch("/api/auth/session")
  out.session = [session.status, session.json]
  const me = await client.fetch("/api/me")
  out.me = [me.status, me.json]
  const signOut = await client.fetch("/api/auth/signout", {
    form: { csrfToken, json: "true", callbackUrl: `${PUBLIC_ORIGIN}/bye` },
  })
  out.signOut = [signOut.status, signOut.json, cookieShape(signOut.setCookies.filter((c) => c.name === SESSION))]
  const after = await client.fetch("/api/auth/session")
  out.after = [after.status, after.json, client.cookies.has(SESSION)]
  const meAfter = await client.fetch("/api/me")
  out.meAfter = meAfter.json
  return out
}

describe("gatehouse/v4 NextAuth in the pages router", () => {
  let ours: Record<string, any>
  let theirs: Record<string, any>
  beforeAll(async () => {
    ;[ours, theirs] = await Promise.all([walk("gatehouse"), walk("next-auth")])
  })

  it("answers /session signed out with {} and lists the providers as next-auth 4 does", () => {
    expect(ours.signedOut).toEqual([200, {}])
    expect(ours.providers).toEqual(theirs.providers)
    expect(ours.providers[1].credentials).toMatchObject({
      id: "credentials",
      type: "credentials",
      signinUrl: `${PUBLIC_ORIGIN}/api/auth/signin/credentials`,
      callbackUrl: `${PUBLIC_ORIGIN}/api/auth/callback/credentials`,
    })
  })

  it("sets next-auth 4's CSRF cookie", () => {
    expect(ours.csrf).toEqual(theirs.csrf)
    expect(ours.csrf[2]).toEqual([`${CSRF} path=/ samesite=lax httponly=true`])
  })

  it("answers a json=true credentials sign-in with { url }: 401 to the error page, then 200 to the callbackUrl", () => {
    expect(theirs.wrong).toEqual([
      401,
      { url: `${PUBLIC_ORIGIN}/api/auth/error?error=CredentialsSignin&provider=credentials` },
    ])
    // Plus the callbackUrl sent, which next-auth 4 keeps in its cookie (docs/differences.md).
    expect(ours.wrong).toEqual([
      401,
      {
        url: `${PUBLIC_ORIGIN}/api/auth/error?error=CredentialsSignin&provider=credentials&callbackUrl=${encodeURIComponent(`${PUBLIC_ORIGIN}/dashboard`)}`,
      },
    ])
    expect(ours.signIn).toEqual(theirs.signIn)
    expect(ours.signIn[0]).toBe(200)
    expect(ours.signIn[1]).toEqual({ url: `${PUBLIC_ORIGIN}/dashboard` })
    expect(ours.signIn[2]).toContain(`${SESSION} path=/ samesite=lax httponly=true`)
  })

  it("writes a session cookie next-auth 4's decode opens", () => {
    expect(ours.token).toMatchObject({ sub: ALICE.id, name: ALICE.name, email: ALICE.email })
    // Gatehouse's token carries its session id too (`sid`, docs/differences.md); next-auth 4's decode reads it as any claim.
    expect(ours.token.sid).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(Object.keys(ours.token).sort()).toEqual([...Object.keys(theirs.token), "sid"].sort())
  })

  it("answers /session and getServerSession(req, res, options) with the user", () => {
    expect(ours.session[0]).toBe(200)
    expect(ours.session[1]).toMatchObject({ user: { name: ALICE.name, email: ALICE.email } })
    expect(Object.keys(ours.session[1]).sort()).toEqual(Object.keys(theirs.session[1]).sort())
    expect(ours.me).toEqual([200, { session: ours.session[1] }])
    expect(Object.keys(theirs.me[1].session).sort()).toEqual(["expires", "user"])
  })

  it("signs out with { url } and the session cookie cleared; afterwards /session is {} and getServerSession null", () => {
    expect(ours.signOut).toEqual(theirs.signOut)
    expect(ours.signOut[1]).toEqual({ url: `${PUBLIC_ORIGIN}/bye` })
    expect(ours.after).toEqual([200, {}, false])
    expect(ours.meAfter).toEqual({ session: null })
    expect(theirs.meAfter).toEqual({ session: null })
  })
})

describe("gatehouse/v4 NextAuth, other forms", () => {
  it("redirects (302) without json=true, as next-auth 4's route does", async () => {
    const results = await Promise.all(
      (["gatehouse", "next-auth"] as const).map(async (impl) => {
        const client = await start(impl)
        const csrfToken = await client.csrf()
        const wrong = await client.fetch("/api/auth/callback/credentials", {
          form: { csrfToken, username: "alice", password: "nope" },
        })
        const ok = await client.fetch("/api/auth/callback/credentials", {
          form: { csrfToken, username: "alice", password: "password", callbackUrl: `${PUBLIC_ORIGIN}/x` },
        })
        return [wrong.status, wrong.headers.get("location"), ok.status, ok.headers.get("location")]
      }),
    )
    expect(results[0]).toEqual(results[1])
    expect(results[0]).toEqual([
      302,
      `${PUBLIC_ORIGIN}/api/auth/error?error=CredentialsSignin&provider=credentials`,
      302,
      `${PUBLIC_ORIGIN}/x`,
    ])
  })

  it("NextAuth(req, res, options) (advanced initialisation) handles the request it is given", async () => {
    const client = await start("gatehouse", {}, true)
    const csrfToken = await client.csrf()
    expect(client.cookies.has(CSRF)).toBe(true)
    const ok = await client.fetch("/api/auth/callback/credentials", {
      form: { csrfToken, username: "alice", password: "password", json: "true", callbackUrl: `${PUBLIC_ORIGIN}/y` },
    })
    expect([ok.status, ok.json]).toEqual([200, { url: `${PUBLIC_ORIGIN}/y` }])
    const session = await client.fetch("/api/auth/session")
    expect(session.json).toMatchObject({ user: { email: ALICE.email } })
  })

  it("getServerSession(req, res, options) writes the re-issued session cookie to res", async () => {
    const client = await start("gatehouse", { session: { updateAge: 0 } })
    const csrfToken = await client.csrf()
    await client.fetch("/api/auth/callback/credentials", {
      form: { csrfToken, username: "alice", password: "password", json: "true" },
    })
    const before = client.cookies.get(SESSION)
    expect(before).toBeTruthy()
    const me = await client.fetch("/api/me")
    expect(me.json.session).toMatchObject({ user: { email: ALICE.email } })
    const reissued = me.setCookies.find((c) => c.name === SESSION)
    expect(reissued?.value).toBeTruthy()
    expect(reissued?.value).not.toBe(before)
    expect(await nextAuthV4Jwt().decode({ token: reissued?.value, secret: V4_SECRET })).toMatchObject({ sub: ALICE.id })
  })

  it("reads a session cookie next-auth 4 wrote (users stay signed in across the swap)", async () => {
    const token = await nextAuthV4Jwt().encode({
      token: { sub: ALICE.id, name: ALICE.name, email: ALICE.email },
      secret: V4_SECRET,
    })
    const client = await start("gatehouse")
    client.cookies.set(SESSION, token)
    const session = await client.fetch("/api/auth/session")
    expect(session.json).toMatchObject({ user: { name: ALICE.name, email: ALICE.email } })
    const me = await client.fetch("/api/me")
    expect(me.json.session).toMatchObject({ user: { email: ALICE.email } })
  })
})
