// Revocation across processes: two app processes (test/support/revocation-app.ts) share a Redis store,
// or a PostgreSQL store and database. One user signs in twice, once through each process; the sessions are revoked
// through the other process with gatehouse/sessions; both cookies then give no session on both processes, measured
// from the revoke call, within the 1 s bound. Another user stays signed in, and the user can sign in again at once.
// With each process's listening connection killed, both listen again and the bound still holds.
// The processes trust a "not revoked" answer for 30 s (REV_CACHE_SECONDS), so only the store's notification (Redis
// pub/sub, PostgreSQL LISTEN/NOTIFY) can carry a revocation to the other process in time. JWT sessions on the Redis
// store need REDIS_URL; JWT sessions on the postgres store and database sessions on the postgres adapter need
// DATABASE_URL (PGlite lives in one process and cannot be shared). Each part is skipped without its server.
import { randomBytes } from "node:crypto"
import { fileURLToPath } from "node:url"
import { createClient } from "@redis/client"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { migrate } from "../src/adapters/postgres.js"
import { migrate as migrateStore } from "../src/stores/postgres.js"
import { type AppProcess, startAppProcess, stopAppProcess } from "./support/app-process.js"
import { CookieJar } from "./support/cookies.js"
import { type MockOp, startMockOp } from "./support/mock-op.js"

const DATABASE_URL = process.env.DATABASE_URL
const REDIS_URL = process.env.REDIS_URL
const APP = fileURLToPath(new URL("./support/revocation-app.ts", import.meta.url))
const SECRET = `revocation-secret-${randomBytes(16).toString("hex")}`
const SCHEMA = `gatehouse_revoke_${randomBytes(5).toString("hex")}`
/** Far above the bound: a revocation that arrives in time came through the store's notification. */
const CACHE_SECONDS = 30
/** The bound the issue sets: every process refuses a revoked session within it. */
const BOUND_MS = 1_000
/** The one origin users see: a load balancer in front of both processes (trustHost). */
const LB = "http://lb.revoke.test"
const FORWARDED = { "x-forwarded-host": "lb.revoke.test", "x-forwarded-proto": "http" }
const SESSION_COOKIE = "authjs.session-token"
/** The Redis client name and PostgreSQL application_name of both processes' connections. */
const CONNECTION_NAME = `gatehouse-revoke-${randomBytes(5).toString("hex")}`

const startApp = (env: Record<string, string>): Promise<AppProcess> => startAppProcess(APP, env)

async function request(origin: string, path: string, jar: CookieJar, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(`${origin}${path}`, {
    redirect: "manual",
    ...init,
    headers: { ...FORWARDED, cookie: jar.header(), ...(init.headers as Record<string, string>) },
  })
  jar.store(res)
  return res
}

const form = (fields: Record<string, string>): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
})

async function csrf(origin: string, base: string, jar: CookieJar): Promise<string> {
  return ((await (await request(origin, `${base}/csrf`, jar)).json()) as { csrfToken: string }).csrfToken
}

/** A user name of lower-case letters (the credentials apps take those) no other run uses. */
const freshName = (label: string): string =>
  label + Array.from(randomBytes(8), (b) => String.fromCharCode(97 + (b % 26))).join("")

/** Who a session cookie, replayed as it was issued, is on one process: the user's id, or null for no session. */
async function sessionUser(origin: string, base: string, cookie: string): Promise<string | null> {
  const res = await fetch(`${origin}${base}/session`, { headers: { ...FORWARDED, cookie } })
  expect(res.status).toBe(200)
  const body = (await res.json()) as { user?: { id?: string } } | null
  return body?.user?.id ?? null
}

interface Listed {
  sessionId: string
  current?: boolean
}

describe.skipIf(!REDIS_URL && !DATABASE_URL)(
  "session revocation across two app processes (skipped without REDIS_URL and DATABASE_URL)",
  () => {
    let a: AppProcess | undefined
    let b: AppProcess | undefined
    let op: MockOp | undefined
    let db: pg.Pool | undefined
    /** What each part measured, printed once at the end for docs/reliability.md. */
    const figures: string[] = []

    beforeAll(async () => {
      const env: Record<string, string> = {
        REV_SECRET: SECRET,
        REV_CACHE_SECONDS: String(CACHE_SECONDS),
        REV_CONNECTION_NAME: CONNECTION_NAME,
      }
      if (DATABASE_URL) {
        db = new pg.Pool({ connectionString: DATABASE_URL, max: 2, options: `-c search_path=${SCHEMA}` })
        await db.query(`create schema ${SCHEMA}`)
        await migrate(db)
        await migrateStore(db)
        op = await startMockOp({ clientId: "revocation-client" })
        Object.assign(env, {
          REV_SCHEMA: SCHEMA,
          REV_OP: JSON.stringify({ issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret }),
        })
      }
      ;[a, b] = await Promise.all([startApp(env), startApp(env)])
    }, 30_000)

    afterAll(async () => {
      await Promise.all([a, b].map((app) => app && stopAppProcess(app)))
      await op?.stop()
      await db?.query(`drop schema if exists ${SCHEMA} cascade`)
      await db?.end()
      if (figures.length)
        process.stdout.write(`\nrevocation propagation (${figures.length} runs):\n${figures.join("\n")}\n`)
    })

    const originA = () => (a as AppProcess).origin
    const originB = () => (b as AppProcess).origin

    /** Credentials sign-in through one process; the session cookie as issued. */
    async function credentialsSignIn(origin: string, base: string, user: string): Promise<string> {
      const jar = new CookieJar()
      const token = await csrf(origin, base, jar)
      const res = await request(
        origin,
        `${base}/callback/credentials`,
        jar,
        form({ csrfToken: token, username: user, password: "pw" }),
      )
      expect(res.status).toBe(302)
      expect(jar.cookies.has(SESSION_COOKIE)).toBe(true)
      return `${SESSION_COOKIE}=${jar.cookies.get(SESSION_COOKIE)}`
    }

    /** An OIDC sign-in through the mock OP, started and finished on one process; the session cookie as issued. */
    async function opSignIn(origin: string, base: string, subject: string): Promise<string> {
      const jar = new CookieJar()
      const res = await request(origin, `${base}/signin/mock`, jar, form({ csrfToken: await csrf(origin, base, jar) }))
      expect(res.status).toBe(302)
      const q = new URL(res.headers.get("location") ?? "").searchParams
      const redirectUri = q.get("redirect_uri") ?? ""
      expect(redirectUri).toBe(`${LB}${base}/callback/mock`)
      const code = (op as MockOp).issueCode({
        redirectUri,
        codeChallenge: q.get("code_challenge") ?? "",
        codeChallengeMethod: "S256",
        nonce: q.get("nonce") ?? "",
        sub: subject,
      })
      const back = new URL(redirectUri)
      back.searchParams.set("code", code)
      back.searchParams.set("state", q.get("state") ?? "")
      back.searchParams.set("iss", op?.issuer ?? "")
      const done = await request(origin, back.pathname + back.search, jar)
      expect(done.status).toBe(302)
      expect(jar.cookies.has(SESSION_COOKIE)).toBe(true)
      return `${SESSION_COOKIE}=${jar.cookies.get(SESSION_COOKIE)}`
    }

    async function adminPost(origin: string, base: string, action: string, body: unknown): Promise<unknown> {
      const res = await fetch(`${origin}${base}/admin/${action}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      })
      const answer = await res.json()
      expect({ status: res.status, answer }).toMatchObject({ status: 200 })
      return answer
    }

    async function listed(origin: string, base: string, userId: string, cookie = ""): Promise<Listed[]> {
      const res = await fetch(`${origin}${base}/admin/list?userId=${encodeURIComponent(userId)}`, {
        headers: { ...FORWARDED, cookie },
      })
      expect(res.status).toBe(200)
      return ((await res.json()) as { sessions: Listed[] }).sessions
    }

    /** Who each cookie is on each process, cookie by cookie: [[A, B] of the first cookie, [A, B] of the second, …]. */
    const everywhere = (base: string, cookies: string[]) =>
      Promise.all(cookies.map((c) => Promise.all([originA(), originB()].map((o) => sessionUser(o, base, c)))))

    /**
     * Polls until every cookie gives no session on both processes; the time from `since` until the first round
     * that saw them all refused (the last round is at most a few ms after the true moment). Fails after 5 s.
     */
    async function msUntilRefused(base: string, cookies: string[], since: number): Promise<number> {
      const deadline = since + 5 * BOUND_MS
      for (;;) {
        const seen = (await everywhere(base, cookies)).flat()
        const now = performance.now()
        if (seen.every((id) => id === null)) return now - since
        if (now > deadline) expect.fail(`still signed in after ${Math.round(now - since)} ms: ${JSON.stringify(seen)}`)
      }
    }

    /**
     * Kills the connection each process listens on and waits until both listen again on new ones: the Redis client
     * subscribes again by itself, the postgres store takes a new client from its pool and LISTENs again.
     */
    async function killRedisListeners(): Promise<void> {
      const admin = createClient({ url: REDIS_URL })
      await admin.connect()
      try {
        const subscribers = async () =>
          String(await admin.sendCommand(["CLIENT", "LIST"]))
            .split("\n")
            .map((line) => Object.fromEntries(line.split(" ").map((kv) => kv.split("=", 2) as [string, string])))
            .filter((c) => c.name === CONNECTION_NAME && Number(c.sub) > 0)
            .map((c) => String(c.id))
        await expect.poll(subscribers, { timeout: 5_000 }).toHaveLength(2)
        const before = await subscribers()
        for (const id of before) await admin.sendCommand(["CLIENT", "KILL", "ID", id])
        await expect
          .poll(async () => (await subscribers()).filter((id) => !before.includes(id)), { timeout: 10_000 })
          .toHaveLength(2)
      } finally {
        await admin.close()
      }
    }
    async function killPostgresListeners(): Promise<void> {
      const listening = async () =>
        (
          (
            await (db as pg.Pool).query(
              `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query = 'LISTEN "gatehouse_revocations"'`,
              [CONNECTION_NAME],
            )
          ).rows as { pid: number }[]
        ).map((r) => r.pid)
      await expect.poll(listening, { timeout: 5_000 }).toHaveLength(2)
      const before = await listening()
      await (db as pg.Pool).query("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid", [before])
      await expect
        .poll(async () => (await listening()).filter((pid) => !before.includes(pid)), { timeout: 10_000 })
        .toHaveLength(2)
    }

    const parts = [
      {
        name: "JWT sessions, Redis store (pub/sub)",
        base: "/rj",
        enabled: Boolean(REDIS_URL),
        signIn: credentialsSignIn,
        userOf: async (_origin: string, _base: string, name: string) => name,
        killListeners: killRedisListeners,
      },
      {
        name: "JWT sessions, PostgreSQL store (LISTEN/NOTIFY)",
        base: "/pj",
        enabled: Boolean(DATABASE_URL),
        signIn: credentialsSignIn,
        userOf: async (_origin: string, _base: string, name: string) => name,
        killListeners: killPostgresListeners,
      },
      {
        name: "database sessions, PostgreSQL adapter and store",
        base: "/pd",
        enabled: Boolean(DATABASE_URL),
        signIn: opSignIn,
        userOf: null,
        killListeners: null,
      },
    ] as const

    for (const part of parts) {
      describe.skipIf(!part.enabled)(part.name, () => {
        const { base } = part

        /** Signs `name` in through `origin`; the cookie and the user's id (the adapter's id for database sessions). */
        async function signIn(origin: string, name: string): Promise<{ cookie: string; userId: string }> {
          const cookie = await part.signIn(origin, base, name)
          const userId = await sessionUser(origin, base, cookie)
          expect(userId).toBeTruthy()
          if (part.userOf) expect(userId).toBe(await part.userOf(origin, base, name))
          return { cookie, userId: userId as string }
        }

        it("sign out everywhere through the other process: both cookies refused on both processes within 1 s; another user untouched; a new sign-in works at once", async () => {
          const name = freshName("ann")
          const onA = await signIn(originA(), name)
          const onB = await signIn(originB(), name)
          expect(onB.userId).toBe(onA.userId)
          const other = await signIn(originA(), freshName("bea"))
          // Each cookie works on both processes, and each process now holds its "not revoked" answers for 30 s.
          expect(await everywhere(base, [onA.cookie, onB.cookie, other.cookie])).toEqual([
            [onA.userId, onA.userId],
            [onA.userId, onA.userId],
            [other.userId, other.userId],
          ])
          // Listed from the moment they were issued, on either process.
          expect(await listed(originA(), base, onA.userId)).toHaveLength(2)

          // Polled while the call runs too: the figure is when every read is refused, counted from the call's start.
          const start = performance.now()
          let callMs = 0
          const call = adminPost(originB(), base, "revoke-user", { userId: onA.userId }).finally(() => {
            callMs = performance.now() - start
          })
          const ms = await msUntilRefused(base, [onA.cookie, onB.cookie], start)
          expect(await call).toEqual({ ended: 2 })
          figures.push(
            `${part.name}, revokeUserSessions: refused everywhere ${ms.toFixed(1)} ms after the call began (the call took ${callMs.toFixed(1)} ms)`,
          )
          expect(ms).toBeLessThanOrEqual(BOUND_MS)

          expect(await everywhere(base, [other.cookie])).toEqual([[other.userId, other.userId]])
          expect(await listed(originB(), base, onA.userId)).toEqual([])
          // Signing in again works at once, on both processes, and is the one session listed.
          const again = await signIn(originA(), name)
          expect(await everywhere(base, [again.cookie])).toEqual([[onA.userId, onA.userId]])
          expect(await listed(originB(), base, onA.userId)).toHaveLength(1)
          // The revoked cookies replayed later, past the default 1 s cache, are still refused.
          await new Promise((resolve) => setTimeout(resolve, 1_200))
          expect((await everywhere(base, [onA.cookie, onB.cookie])).flat()).toEqual([null, null, null, null])
        })

        it("revokeSession of one session through the other process: that cookie refused on both within 1 s, the user's other session kept", async () => {
          const name = freshName("cid")
          const onA = await signIn(originA(), name)
          const onB = await signIn(originB(), name)
          expect(await everywhere(base, [onA.cookie, onB.cookie])).toEqual([
            [onA.userId, onA.userId],
            [onA.userId, onA.userId],
          ])
          // The session signed in through B, found on A's list by its own cookie (current), revoked through A.
          const list = await listed(originA(), base, onA.userId, onB.cookie)
          expect(list).toHaveLength(2)
          const current = list.filter((s) => s.current)
          expect(current).toHaveLength(1)
          const start = performance.now()
          let callMs = 0
          const call = adminPost(originA(), base, "revoke-session", { sessionId: current[0]?.sessionId }).finally(
            () => {
              callMs = performance.now() - start
            },
          )
          const ms = await msUntilRefused(base, [onB.cookie], start)
          expect(await call).toEqual({ revoked: true })
          figures.push(
            `${part.name}, revokeSession: refused everywhere ${ms.toFixed(1)} ms after the call began (the call took ${callMs.toFixed(1)} ms)`,
          )
          expect(ms).toBeLessThanOrEqual(BOUND_MS)
          expect(await everywhere(base, [onA.cookie])).toEqual([[onA.userId, onA.userId]])
          expect((await listed(originB(), base, onA.userId)).map((s) => s.sessionId)).not.toContain(
            current[0]?.sessionId,
          )
          // The same id again: nothing left to revoke.
          expect(await adminPost(originB(), base, "revoke-session", { sessionId: current[0]?.sessionId })).toEqual({
            revoked: false,
          })
        })

        const { killListeners } = part
        if (killListeners) {
          it("each process's listening connection killed: both listen again on new ones, and a revocation is then refused everywhere within 1 s", async () => {
            const name = freshName("dee")
            const onA = await signIn(originA(), name)
            const onB = await signIn(originB(), name)
            expect((await everywhere(base, [onA.cookie, onB.cookie])).flat()).toEqual(Array(4).fill(onA.userId))
            await killListeners()
            // Cached "not revoked" answers from before the kill are still there: only a delivered message ends them.
            expect((await everywhere(base, [onA.cookie, onB.cookie])).flat()).toEqual(Array(4).fill(onA.userId))
            const start = performance.now()
            const call = adminPost(originA(), base, "revoke-user", { userId: onA.userId })
            const ms = await msUntilRefused(base, [onA.cookie, onB.cookie], start)
            expect(await call).toEqual({ ended: 2 })
            figures.push(`${part.name}, after the listening connections were killed: ${ms.toFixed(1)} ms`)
            expect(ms).toBeLessThanOrEqual(BOUND_MS)
          })
        }
      })
    }
  },
)
