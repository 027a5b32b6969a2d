// Scale-out: three app processes (test/support/scale-out-app.ts, separate ports) share one PostgreSQL schema. A user
// signed in through one is signed in on all; signing out through any ends the database session everywhere; a
// refresh-token rotation racing across the processes spends the refresh token once (the JWT app's `store` is the
// postgres store: one process claims the refresh lock, the others read its sealed result). Needs DATABASE_URL: PGlite
// lives in one process's memory and cannot be shared between processes (its socket server is the separate
// @electric-sql/pglite-socket package, not a dependency). With REDIS_URL the same race runs again with the redis store.
import { createHash, randomBytes } from "node:crypto"
import { createServer } from "node:http"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { migrate } from "../src/adapters/postgres.js"
import { migrate as migrateStore } from "../src/stores/postgres.js"
import { type AppProcess, startAppProcess, stopAppProcess } from "./support/app-process.js"
import { CookieJar } from "./support/cookies.js"
import { type Listening, listenLocal, readBody, writeJson } from "./support/listen.js"
import { type MockOp, startMockOp } from "./support/mock-op.js"
import { createSoftAuthenticator, type SoftAuthenticator } from "./support/soft-authenticator.js"

const DATABASE_URL = process.env.DATABASE_URL
const REDIS_URL = process.env.REDIS_URL
const APP = fileURLToPath(new URL("./support/scale-out-app.ts", import.meta.url))
const SECRET = `scale-out-secret-${randomBytes(16).toString("hex")}`
const SCHEMA = `gatehouse_scaleout_${randomBytes(5).toString("hex")}`
/** The one origin users see: a load balancer in front of the processes sets X-Forwarded-Host (trustHost). */
const LB = "http://lb.scale.test"
const FORWARDED = { "x-forwarded-host": "lb.scale.test", "x-forwarded-proto": "http" }

// ---------------------------------------------------------------------------------------------------------
// A refresh-capable OAuth 2 server that rotates refresh tokens (RFC 6749 §6) and records every use of one.

interface RefreshServer {
  url: string
  clientId: string
  clientSecret: string
  /** Every refresh_token grant, in arrival order. */
  grants: { refreshToken: string; status: number }[]
  /** What the authorize endpoint would do: a code bound to the redirect URI and PKCE challenge. */
  mint(redirectUri: string, challenge: string | null): string
  stop(): Promise<void>
}

async function startRefreshServer(): Promise<RefreshServer> {
  const clientId = "scale-client"
  const clientSecret = `scale-secret-${randomBytes(8).toString("hex")}`
  const codes = new Map<string, { redirectUri: string; challenge: string | null }>()
  const live = new Set<string>()
  const grants: RefreshServer["grants"] = []
  let n = 0
  const issue = () => {
    const rt = `rt-${++n}-${randomBytes(6).toString("hex")}`
    live.add(rt)
    // An access token that is due for refresh at once (Gatehouse refreshes 30 s before expiry).
    return {
      access_token: `at-${n}-${randomBytes(6).toString("hex")}`,
      token_type: "bearer",
      expires_in: 5,
      refresh_token: rt,
      scope: "read",
    }
  }
  const listening: Listening = await listenLocal(
    createServer(async (req, res) => {
      const url = new URL(req.url ?? "/", "http://x")
      if (req.method === "GET" && url.pathname === "/me")
        return writeJson(res, 200, { id: "scale-refresh-user", name: "Rae", email: "rae@scale.test" })
      if (req.method !== "POST" || url.pathname !== "/token") return writeJson(res, 404, { error: "not_found" })
      const body = new URLSearchParams(await readBody(req))
      if (req.headers.authorization !== `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`)
        return writeJson(res, 401, { error: "invalid_client" })
      if (body.get("grant_type") === "authorization_code") {
        const grant = codes.get(body.get("code") ?? "")
        codes.delete(body.get("code") ?? "")
        const verifier = body.get("code_verifier") ?? ""
        if (
          !grant ||
          grant.redirectUri !== body.get("redirect_uri") ||
          (grant.challenge !== null && createHash("sha256").update(verifier).digest("base64url") !== grant.challenge)
        ) {
          return writeJson(res, 400, { error: "invalid_grant" })
        }
        return writeJson(res, 200, issue())
      }
      if (body.get("grant_type") === "refresh_token") {
        const rt = body.get("refresh_token") ?? ""
        const record = { refreshToken: rt, status: 0 }
        grants.push(record)
        // A slow token endpoint, as real ones are: the racing reads all arrive while the first refresh is under way.
        await new Promise((resolve) => setTimeout(resolve, 300))
        if (!live.delete(rt))
          return writeJson(res, (record.status = 400), {
            error: "invalid_grant",
            error_description: "refresh token already used",
          })
        record.status = 200
        return writeJson(res, 200, issue())
      }
      return writeJson(res, 400, { error: "unsupported_grant_type" })
    }),
  )
  return {
    url: listening.origin,
    clientId,
    clientSecret,
    grants,
    mint(redirectUri, challenge) {
      const code = randomBytes(12).toString("base64url")
      codes.set(code, { redirectUri, challenge })
      return code
    },
    stop: () => listening.stop(),
  }
}

// ---------------------------------------------------------------------------------------------------------
// The three app processes

const startApp = (env: Record<string, string>): Promise<AppProcess> => startAppProcess(APP, env)

async function get(origin: string, path: string, jar: CookieJar): Promise<Response> {
  const res = await fetch(`${origin}${path}`, { redirect: "manual", headers: { ...FORWARDED, cookie: jar.header() } })
  jar.store(res)
  return res
}

async function post(origin: string, path: string, form: Record<string, string>, jar: CookieJar): Promise<Response> {
  const res = await fetch(`${origin}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { ...FORWARDED, cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  })
  jar.store(res)
  return res
}

async function csrf(origin: string, basePath: string, jar: CookieJar): Promise<string> {
  return ((await (await get(origin, `${basePath}/csrf`, jar)).json()) as { csrfToken: string }).csrfToken
}

const clone = (jar: CookieJar): CookieJar => {
  const copy = new CookieJar()
  for (const [k, v] of jar.cookies) copy.cookies.set(k, v)
  return copy
}

// ---------------------------------------------------------------------------------------------------------

describe.skipIf(!DATABASE_URL)(
  "scale-out: three app processes share PostgreSQL, and Redis with REDIS_URL (skipped without DATABASE_URL: PGlite cannot be shared across processes)",
  () => {
    let op: MockOp
    let refresher: RefreshServer
    let apps: AppProcess[] = []
    let db: pg.Pool

    beforeAll(async () => {
      db = new pg.Pool({ connectionString: DATABASE_URL, max: 2, options: `-c search_path=${SCHEMA}` })
      await db.query(`create schema ${SCHEMA}`)
      await migrate(db)
      await migrateStore(db)
      op = await startMockOp({ clientId: "scale-out-client" })
      refresher = await startRefreshServer()
      const env = {
        DATABASE_URL: DATABASE_URL as string,
        SCALE_SCHEMA: SCHEMA,
        SCALE_SECRET: SECRET,
        SCALE_OP: JSON.stringify({ issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret }),
        SCALE_REFRESH: JSON.stringify({
          url: refresher.url,
          clientId: refresher.clientId,
          clientSecret: refresher.clientSecret,
        }),
      }
      apps = await Promise.all([startApp(env), startApp(env), startApp(env)])
    })

    afterAll(async () => {
      await Promise.all(apps.map(stopAppProcess))
      await op?.stop()
      await refresher?.stop()
      await db?.query(`drop schema if exists ${SCHEMA} cascade`)
      await db?.end()
    })

    const origin = (i: number) => (): string => (apps[i] as AppProcess).origin
    const A = origin(0)
    const B = origin(1)
    const C = origin(2)

    /** An OIDC sign-in started on `start` and finished (the IdP's redirect back, routed by the balancer) on `finish`. */
    async function signInAcross(start: string, finish: string, subject: string): Promise<CookieJar> {
      const jar = new CookieJar()
      const res = await post(start, "/auth/signin/mock", { csrfToken: await csrf(start, "/auth", jar) }, jar)
      expect(res.status).toBe(302)
      const q = new URL(res.headers.get("location") ?? "").searchParams
      const redirectUri = q.get("redirect_uri") ?? ""
      expect(redirectUri).toBe(`${LB}/auth/callback/mock`)
      const code = op.issueCode({
        redirectUri,
        codeChallenge: q.get("code_challenge") ?? "",
        codeChallengeMethod: "S256",
        nonce: q.get("nonce") ?? "",
        sub: subject,
      })
      const back = new URL(redirectUri)
      back.searchParams.set("code", code)
      back.searchParams.set("state", q.get("state") ?? "")
      back.searchParams.set("iss", op.issuer)
      const done = await get(finish, back.pathname + back.search, jar)
      expect(done.status).toBe(302)
      expect(done.headers.get("location")).toBe(LB)
      expect(jar.cookies.has("authjs.session-token")).toBe(true)
      return jar
    }

    async function sessionEmail(origin: string, jar: CookieJar): Promise<string | null> {
      const res = await get(origin, "/auth/session", clone(jar))
      expect(res.status).toBe(200)
      const body = (await res.json()) as { user?: { email?: string } } | null
      return body?.user?.email ?? null
    }

    async function sessionRows(email: string): Promise<number> {
      const { rows } = await db.query(
        `select count(*)::int as n from sessions s join users u on u.id = s."userId" where u.email = $1`,
        [email],
      )
      return (rows[0] as { n: number }).n
    }

    it("a user signed in through one process is signed in on all three", async () => {
      const jar = await signInAcross(A(), B(), "scale-alice")
      expect(await Promise.all([A(), B(), C()].map((o) => sessionEmail(o, jar)))).toEqual([
        "scale-alice@scale.test",
        "scale-alice@scale.test",
        "scale-alice@scale.test",
      ])
      expect(await sessionRows("scale-alice@scale.test")).toBe(1)
    })

    it("signing out through any process ends the database session on every process", async () => {
      const jar = await signInAcross(B(), C(), "scale-bob")
      const stolen = clone(jar) // the cookie as it was: sign-out must end the session itself, not just clear the cookie
      expect(await sessionEmail(A(), jar)).toBe("scale-bob@scale.test")
      const out = await post(C(), "/auth/signout", { csrfToken: await csrf(C(), "/auth", jar) }, jar)
      expect(out.status).toBe(302)
      expect(jar.cookies.has("authjs.session-token")).toBe(false)
      expect(await sessionRows("scale-bob@scale.test")).toBe(0)
      expect(await Promise.all([A(), B(), C()].map((o) => sessionEmail(o, stolen)))).toEqual([null, null, null])
    })

    /** Signs in to a JWT app (refreshAccessToken) through A; the access token is due for refresh at once. */
    async function jwtSignIn(basePath = "/jwt"): Promise<CookieJar> {
      const jar = new CookieJar()
      const res = await post(A(), `${basePath}/signin/refresher`, { csrfToken: await csrf(A(), basePath, jar) }, jar)
      expect(res.status).toBe(302)
      const q = new URL(res.headers.get("location") ?? "").searchParams
      const redirectUri = q.get("redirect_uri") ?? ""
      const back = new URL(redirectUri)
      back.searchParams.set("code", refresher.mint(redirectUri, q.get("code_challenge")))
      back.searchParams.set("state", q.get("state") ?? "")
      const done = await get(A(), back.pathname + back.search, jar)
      expect(done.status).toBe(302)
      expect(jar.cookies.has("authjs.session-token")).toBe(true)
      return jar
    }

    /** The same session cookie read on all three processes at once; returns the bodies and the grants it caused. */
    async function racingReads(
      jar: CookieJar,
      basePath = "/jwt",
    ): Promise<{ bodies: ({ user?: { email?: string }; error?: string } | null)[]; spent: number }> {
      const before = refresher.grants.length
      const responses = await Promise.all(
        [A(), B(), C()].map((o) =>
          fetch(`${o}${basePath}/session`, { headers: { ...FORWARDED, cookie: jar.header() } }),
        ),
      )
      for (const r of responses) expect(r.status).toBe(200)
      const bodies = (await Promise.all(responses.map((r) => r.json()))) as ({
        user?: { email?: string }
        error?: string
      } | null)[]
      const used = refresher.grants.slice(before)
      const first = used[0]?.refreshToken
      return { bodies, spent: used.filter((g) => g.refreshToken === first).length }
    }

    it("a refresh racing across processes leaves every reader signed in, and refreshes at least once", async () => {
      const { bodies, spent } = await racingReads(await jwtSignIn())
      expect(bodies.map((b) => b?.user?.email)).toEqual(["rae@scale.test", "rae@scale.test", "rae@scale.test"])
      expect(spent).toBeGreaterThanOrEqual(1)
    })

    // Without the shared store each process would spend the same refresh token; with rotation the later uses get
    // invalid_grant and those readers see RefreshTokenError (the in-process dedupe of src/session/refresh.ts alone).
    it("a refresh-token rotation racing across processes spends the refresh token once", async () => {
      const { bodies, spent } = await racingReads(await jwtSignIn())
      expect(spent).toBe(1)
      expect(bodies.filter((b) => b?.error === "RefreshTokenError")).toEqual([])
      expect(bodies.map((b) => b?.user?.email)).toEqual(["rae@scale.test", "rae@scale.test", "rae@scale.test"])
      // Nothing in the shared table holds a provider token in clear.
      const { rows } = await db.query(`select key, value from gatehouse_store`)
      const grants = refresher.grants.map((g) => g.refreshToken)
      expect(rows.length).toBeGreaterThan(0)
      for (const row of rows as { key: string; value: string }[]) {
        for (const token of grants) expect(`${row.key} ${row.value}`).not.toContain(token)
        expect(row.value).not.toMatch(/at-\d+-/)
      }
    })

    // WA-04 with real processes: each callback for one credential reads, checks and writes the counter under a lock in
    // the shared store (src/flows/webauthn.ts); without it two processes both pass the check against the same stored value.
    describe("passkeys: the signature counter across processes", () => {
      const ACCOUNT = `${LB}/account`
      const REFUSED = `${LB}/pk/error?error=WebAuthnVerificationError`

      async function options(
        origin: string,
        jar: CookieJar,
        query: Record<string, string>,
      ): Promise<Record<string, unknown>> {
        const res = await get(origin, `/pk/webauthn-options/passkey?${new URLSearchParams(query)}`, jar)
        expect(res.status).toBe(200)
        return ((await res.json()) as { options: Record<string, unknown> }).options
      }
      async function callback(origin: string, jar: CookieJar, action: string, data: unknown): Promise<string> {
        const res = await post(
          origin,
          "/pk/callback/passkey",
          { action, data: JSON.stringify(data), csrfToken: await csrf(origin, "/pk", jar), callbackUrl: ACCOUNT },
          jar,
        )
        expect(res.status).toBe(302)
        return res.headers.get("location") ?? ""
      }
      async function counter(): Promise<number> {
        const { rows } = await db.query(`select counter from authenticators`)
        expect(rows).toHaveLength(1)
        return Number((rows[0] as { counter: number | string }).counter)
      }
      /** An assertion over options fetched (and their challenge cookie kept) in `jar` from `origin`. */
      async function assertion(
        origin: string,
        jar: CookieJar,
        auth: SoftAuthenticator,
        count: number,
      ): Promise<unknown> {
        return auth.authenticate((await options(origin, jar, { action: "authenticate" })) as never, { counter: count })
      }

      it("WA-04 a clone's assertion with the same counter, posted to two processes at once, signs in once; the stored counter never goes down", async () => {
        const auth = createSoftAuthenticator({ alg: "ES256", rpId: "lb.scale.test", origin: LB })
        const reg = new CookieJar()
        expect(
          await callback(
            A(),
            reg,
            "register",
            auth.register((await options(A(), reg, { action: "register", email: "pk@scale.test" })) as never),
          ),
        ).toBe(ACCOUNT)
        const clone = auth.clone()
        for (let round = 0; round < 4; round++) {
          const base = await counter()
          const [j1, j2] = [new CookieJar(), new CookieJar()]
          const [a1, a2] = [await assertion(B(), j1, auth, base + 1), await assertion(C(), j2, clone, base + 1)]
          const same = await Promise.all([callback(B(), j1, "authenticate", a1), callback(C(), j2, "authenticate", a2)])
          expect(same.sort()).toEqual([ACCOUNT, REFUSED])
          expect(await counter()).toBe(base + 1)
          // base+11 and base+6 at once on two processes: whichever runs first, the stored counter ends at base+11.
          const [j3, j4] = [new CookieJar(), new CookieJar()]
          const [hi, lo] = [await assertion(A(), j3, auth, base + 11), await assertion(B(), j4, clone, base + 6)]
          const [rHi] = await Promise.all([
            callback(A(), j3, "authenticate", hi),
            callback(B(), j4, "authenticate", lo),
          ])
          expect(rHi).toBe(ACCOUNT)
          expect(await counter()).toBe(base + 11)
        }
        // Every lock was released.
        const { rows } = await db.query(`select key from gatehouse_store where key like 'gatehouse:webauthn:counter:%'`)
        expect(rows).toEqual([])
      })
    })

    it.runIf(REDIS_URL)(
      "a refresh-token rotation racing across processes spends the refresh token once with the redis store",
      async () => {
        const { bodies, spent } = await racingReads(await jwtSignIn("/rjwt"), "/rjwt")
        expect(spent).toBe(1)
        expect(bodies.map((b) => b?.user?.email)).toEqual(["rae@scale.test", "rae@scale.test", "rae@scale.test"])
        expect(bodies.filter((b) => b?.error === "RefreshTokenError")).toEqual([])
      },
    )
  },
)
