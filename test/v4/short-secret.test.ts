// A next-auth v4 app whose secret is shorter than 32 characters (next-auth 4 took any length) swaps its imports
// without signing anyone out: `secret: [newLongSecret, oldShortSecret]`. The session cookie comes from a real
// next-auth 4.24.15 sign-in under the 12-character secret (its NextAuth, over the same Next-like node:http harness);
// gatehouse/v4's NextAuth and getServerSession read it, re-issue it under the long secret, and a server with the long
// secret alone reads the new cookie. A short first secret (it would seal new cookies) is still refused: every route
// answers 500 and getServerSession rejects as next-auth 4's does. The retired short secret is named once in a warning.
import { describe, expect, it } from "vitest"
import NextAuth, { getServerSession } from "../../src/integrations/next-v4/index.js"
import { nextAuthV4Jwt } from "../support/next-auth-v4.js"
import {
  ALICE,
  appAtPublicOrigin,
  Client,
  gatehouseOptions,
  nextAuthOptions,
  nextAuthV4Next,
  PUBLIC_ORIGIN,
  serveApiRoutes,
} from "./kit.js"

const SHORT = "twelve-chars"
const LONG = "the-new-secret-of-at-least-32-characters!"
const SESSION = "next-auth.session-token"
const CONFIGURATION = "There is a problem with the server configuration. Check the server logs for more information."

const servers = appAtPublicOrigin()

interface Logged {
  errors: unknown[][]
  warnings: unknown[]
}

/** gatehouse/v4's NextAuth and a getServerSession route (/api/me), with a v4-style logger that records its calls. */
async function gatehouse(secret: string | string[]): Promise<{ client: Client; logged: Logged }> {
  const logged: Logged = { errors: [], warnings: [] }
  const options = gatehouseOptions({
    secret,
    logger: {
      error: (code: string, metadata: unknown) => logged.errors.push([code, metadata]),
      warn: (code: string) => logged.warnings.push(code),
    },
  })
  const server = await serveApiRoutes(NextAuth(options), {
    "/api/me": async (req, res) => {
      try {
        res.json({ session: await getServerSession(req, res, options) })
      } catch (error) {
        const e = error as Error
        res.status(500).json({ rejected: e.message, cause: (e.cause as { type?: string } | undefined)?.type })
      }
    },
  })
  servers.push(server)
  return { client: new Client(server.origin), logged }
}

/** Signs alice in on next-auth 4.24.15 itself with the short secret; returns her session cookie. */
async function v4SessionCookie(): Promise<string> {
  const server = await serveApiRoutes(nextAuthV4Next().NextAuth(nextAuthOptions({ secret: SHORT })))
  servers.push(server)
  const v4 = new Client(server.origin)
  const csrfToken = await v4.csrf()
  const signIn = await v4.fetch("/api/auth/callback/credentials", {
    form: { csrfToken, username: "alice", password: "password", json: "true" },
  })
  expect(signIn.status).toBe(200)
  const token = v4.cookies.get(SESSION)
  expect(token).toBeTruthy()
  expect(await nextAuthV4Jwt().decode({ token, secret: SHORT })).toMatchObject({ sub: ALICE.id })
  return token as string
}

describe("a short next-auth v4 secret kept as a retired one", () => {
  it("secret [long, short]: the v4 cookie is the session, re-issued under the long secret, which alone reads it next", async () => {
    const token = await v4SessionCookie()
    const { client, logged } = await gatehouse([LONG, SHORT])
    client.cookies.set(SESSION, token)
    const session = await client.fetch("/api/auth/session")
    expect(session.status).toBe(200)
    expect(session.json).toMatchObject({ user: { name: ALICE.name, email: ALICE.email } })
    const reissued = session.setCookies.find((c) => c.name === SESSION)
    expect(reissued?.value).toBeTruthy()
    expect(reissued?.value).not.toBe(token)
    // Sealed under the long secret: next-auth 4's own decode opens it with that one and not with the short one.
    const v4Jwt = nextAuthV4Jwt()
    expect(await v4Jwt.decode({ token: reissued?.value, secret: LONG })).toMatchObject({ sub: ALICE.id })
    await expect(v4Jwt.decode({ token: reissued?.value, secret: SHORT })).rejects.toThrow()
    // The retired secret is named once, as a warning in next-auth 4's code style; nothing was logged as an error.
    expect(logged.warnings).toEqual(["SECRET_1_SHORT"])
    expect(logged.errors).toEqual([])

    // The browser now holds the re-issued cookie: a server with the long secret alone reads it (route and
    // getServerSession), while the original v4 cookie no longer opens there.
    const next = await gatehouse(LONG)
    next.client.cookies.set(SESSION, client.cookies.get(SESSION) as string)
    expect((await next.client.fetch("/api/auth/session")).json).toMatchObject({ user: { email: ALICE.email } })
    expect((await next.client.fetch("/api/me")).json.session).toMatchObject({ user: { email: ALICE.email } })
    const stale = await gatehouse(LONG)
    stale.client.cookies.set(SESSION, token)
    expect((await stale.client.fetch("/api/auth/session")).json).toEqual({})
    expect(stale.logged.errors.map(([code]) => code)).toEqual(["JWT_SESSION_ERROR"])
  })

  it("getServerSession(req, res, options) with [long, short] reads the v4 cookie and writes the re-issued one", async () => {
    const token = await v4SessionCookie()
    const { client } = await gatehouse([LONG, SHORT])
    client.cookies.set(SESSION, token)
    const me = await client.fetch("/api/me")
    expect(me.status).toBe(200)
    expect(me.json.session).toMatchObject({ user: { email: ALICE.email } })
    const reissued = me.setCookies.find((c) => c.name === SESSION)
    expect(await nextAuthV4Jwt().decode({ token: reissued?.value, secret: LONG })).toMatchObject({ sub: ALICE.id })
  })

  it("a short first secret is still refused: 500 on the routes, getServerSession rejects with next-auth 4's message", async () => {
    for (const secret of [SHORT, [SHORT, LONG]]) {
      const { client, logged } = await gatehouse(secret)
      const session = await client.fetch("/api/auth/session")
      expect(session.status).toBe(500)
      expect(Object.keys(session.json)).toEqual(["message"])
      expect(session.json.message).toMatch(/problem with the server configuration\. Check the server logs/)
      const me = await client.fetch("/api/me")
      expect(me.status).toBe(500)
      expect(me.json).toEqual({ rejected: CONFIGURATION, cause: "MissingSecret" })
      // Logged once, as next-auth 4 names a missing or unusable secret; the message says which entry is too short.
      expect(logged.errors).toHaveLength(1)
      expect(logged.errors[0]?.[0]).toBe("NO_SECRET")
      expect((logged.errors[0]?.[1] as Error).message).toMatch(Array.isArray(secret) ? /secret\[0\]/ : /`secret`/)
      expect(logged.warnings).toEqual([])
    }
  })

  it("getServerSession with no secret anywhere rejects as next-auth 4's does and logs NO_SECRET once", async () => {
    const errors: unknown[][] = []
    const options = { providers: [], logger: { error: (code: string, m: unknown) => errors.push([code, m]) } }
    const theirs = nextAuthV4Next().getServerSession
    const theirErrors: unknown[][] = []
    const theirOptions = { providers: [], logger: { error: (code: string, m: unknown) => theirErrors.push([code, m]) } }
    const req = { headers: {}, cookies: {} }
    const res = { setHeader() {}, getHeader() {} }
    const nodeEnv = process.env.NODE_ENV
    ;(process.env as Record<string, string>).NODE_ENV = "production"
    try {
      const ours = await getServerSession(req as never, res as never, options).then(
        () => undefined,
        (e: unknown) => e as Error,
      )
      const their = await theirs(req, res, theirOptions).then(
        () => undefined,
        (e: unknown) => e as Error,
      )
      expect(ours).toBeInstanceOf(Error)
      expect(their).toBeInstanceOf(Error)
      expect(ours?.message).toBe(their?.message)
      expect(ours?.message).toBe(CONFIGURATION)
      expect((ours?.cause as { type?: string }).type).toBe("MissingSecret")
      expect(errors.map(([code]) => code)).toEqual(["NO_SECRET"])
      expect(theirErrors.map(([code]) => code)).toEqual(["NO_SECRET"])
    } finally {
      ;(process.env as Record<string, string | undefined>).NODE_ENV = nodeEnv
    }
  })
})

describe("getToken and withAuth take the rotated list too", () => {
  it("a v4 cookie sealed under the retired short secret is a token for getToken and withAuth given [long, short]", async () => {
    const { getToken } = await import("../../src/integrations/next-v4/jwt.js")
    const { withAuth } = await import("../../src/integrations/next-v4/middleware.js")
    const token = await v4SessionCookie()
    const req = new Request(`${PUBLIC_ORIGIN}/protected`, { headers: { cookie: `${SESSION}=${token}` } })
    expect(await getToken({ req: req as never, secret: [LONG, SHORT] })).toMatchObject({ sub: ALICE.id })
    expect(await getToken({ req: req as never, secret: LONG })).toBeNull()
    // withAuth lets the request on (nothing returned) with the list, and redirects to sign in with the long one alone.
    const nextRequest = Object.assign(req, { nextUrl: new URL(req.url) })
    expect(await withAuth(nextRequest as never, { secret: [LONG, SHORT] })).toBeUndefined()
    const refused = (await withAuth(nextRequest as never, { secret: LONG })) as Response
    expect(refused.status).toBe(307)
  })
})
