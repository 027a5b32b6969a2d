// Gatehouse on Cloudflare Workers with D1: test/runtimes/apps/workers-d1.ts (Hono + gatehouse/hono) bundled from dist/
// under workerd's export conditions and run by miniflare's workerd without nodejs_compat, with a local D1 binding.
// @auth/d1-adapter is the published package, unchanged: it holds the users, the e-mail verification tokens and the
// database sessions; gatehouse/stores/d1 holds the shared store and the sign-in rate limit in the same database.
// Driven over HTTP; D1 is read from this process through miniflare's getD1Database (a proxy into workerd).
import { createServer } from "node:http"
import { up } from "@auth/d1-adapter"
import { Miniflare } from "miniflare"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { D1Store, RATE_LIMIT_TABLE, STORE_TABLE, migrate } from "../../src/stores/d1.js"
import type { SharedStore } from "../../src/stores/index.js"
import { runStoreConformanceSuite } from "../../src/stores/testing.js"
import { Browser } from "../support/browser.js"
import { setCookies } from "../support/cookies.js"
import { ensureDist } from "../support/dist.js"
import { freePort, type Listening, listenLocal, readBody } from "../support/listen.js"
import { bundleApp } from "../support/runtime-kit.js"
import { BASE_PATH } from "./apps/fixture.js"

const SESSION_COOKIE = "authjs.session-token"
const SECRET = "workers-d1-tests-secret-of-at-least-32-characters"
/** E-mail sign-in requests per e-mail address per window (the app's rateLimit.max). */
const RATE_LIMIT_MAX = 3
/** A dist/ build by another worker may come first. */
const START_TIMEOUT_MS = 240_000

interface Mail {
  identifier: string
  url: string
}

/** The Worker's address (miniflare on 127.0.0.1); browsers reach it there, as on Cloudflare at the public URL. */
let origin = ""
/** AUTH_URL, a binding: the mailed links, redirects and cookies name it. */
let AUTH = ""
let LANDING = ""
let mf: Miniflare | undefined
let capture: Listening | undefined
const mails: Mail[] = []
let bundleInputs: string[] = []

const d1 = () => {
  if (!mf) throw new Error("miniflare did not start")
  return mf.getD1Database("DB")
}

beforeAll(async () => {
  ensureDist()
  const bundle = await bundleApp("test/runtimes/apps/workers-d1.ts", ["workerd", "worker", "browser"], "esm")
  bundleInputs = bundle.inputs
  capture = await listenLocal(
    createServer(async (req, res) => {
      mails.push(JSON.parse(await readBody(req)) as Mail)
      res.writeHead(202).end()
    }),
  )
  // AUTH_URL must name the port before the Worker starts.
  const port = await freePort()
  origin = `http://127.0.0.1:${port}`
  AUTH = `${origin}${BASE_PATH}`
  LANDING = `${origin}/dashboard`
  mf = new Miniflare({
    modules: true,
    script: bundle.code,
    compatibilityDate: "2025-01-01",
    d1Databases: ["DB"],
    bindings: { AUTH_SECRET: SECRET, AUTH_URL: AUTH, MAIL_CAPTURE_URL: `${capture.origin}/mail`, RATE_LIMIT_MAX },
    host: "127.0.0.1",
    port,
  })
  expect((await mf.ready).origin).toBe(origin)
  const db = await d1()
  // The adapter's own schema: up() starts one statement per table and does not wait for them, so wait here.
  await up(db as Parameters<typeof up>[0])
  const adapterTables = ["accounts", "sessions", "users", "verification_tokens"]
  for (let i = 0; ; i++) {
    const { results } = await db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (${adapterTables.map(() => "?").join(", ")})`,
      )
      .bind(...adapterTables)
      .all()
    if (results.length === adapterTables.length) break
    if (i > 100) throw new Error("@auth/d1-adapter's up() did not create its tables")
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  await migrate(db)
}, START_TIMEOUT_MS)

afterAll(async () => {
  await Promise.all([mf?.dispose(), capture?.stop()])
})

const browser = (): Browser => new Browser()

function formPost(path: string, fields: Record<string, string>): Request {
  return new Request(`${origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  })
}

async function csrfToken(b: Browser): Promise<string> {
  const body = (await (await b.request(`${AUTH}/csrf`)).json()) as { csrfToken: string }
  return body.csrfToken
}

/** Asks for a sign-in link; resolves to the sign-in response and the mail it produced, if any. */
async function requestLink(b: Browser, email: string): Promise<{ res: Response; mail: Mail | undefined }> {
  const before = mails.length
  const res = await b.request(
    formPost(`${BASE_PATH}/signin/email`, { csrfToken: await csrfToken(b), email, callbackUrl: LANDING }),
  )
  return { res, mail: mails.slice(before).find((m) => m.identifier === email) }
}

describe("Cloudflare Workers with D1 (workerd, no nodejs_compat)", () => {
  it("runs in an isolate without process or Buffer, on the Web Crypto backend", async () => {
    const res = await fetch(`${origin}/runtime`)
    expect(await res.json()).toEqual({ process: "undefined", buffer: "undefined" })
    expect(bundleInputs).toContain("dist/crypto/web.js")
    expect(bundleInputs).not.toContain("dist/crypto/node.js")
    expect(bundleInputs.some((i) => i.includes("@auth/d1-adapter"))).toBe(true)
  })

  it("e-mail sign-in with database sessions: the session is a D1 row, /session reads it, sign-out deletes it", async () => {
    const db = await d1()
    const email = `ada-${crypto.randomUUID().slice(0, 8)}@example.test`
    const b = browser()
    const { res, mail } = await requestLink(b, email)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${AUTH}/verify-request?provider=email&type=email`)
    expect(mail?.url.startsWith(`${AUTH}/callback/email?`)).toBe(true)
    // The adapter stored the token (Gatehouse stores its hash, as Auth.js does).
    const pending = await db.prepare("SELECT token FROM verification_tokens WHERE identifier = ?").bind(email).all()
    expect(pending.results).toHaveLength(1)
    expect(pending.results[0]?.token).not.toBe(new URL(mail?.url ?? "").searchParams.get("token"))

    const landed = await b.follow(mail?.url ?? "")
    expect(landed.url).toBe(LANDING)
    expect(landed.status).toBe(200)
    const sessionToken = b.cookies.get("127.0.0.1", SESSION_COOKIE)?.value
    expect(sessionToken).toMatch(/^[\w-]{40,}$/)

    const user = (await db
      .prepare("SELECT id, email, emailVerified FROM users WHERE email = ?")
      .bind(email)
      .first()) as {
      id: string
      emailVerified: string | null
    } | null
    expect(user?.emailVerified).toBeTruthy()
    const row = (await db
      .prepare("SELECT userId, expires FROM sessions WHERE sessionToken = ?")
      .bind(sessionToken)
      .first()) as {
      userId: string
      expires: string
    } | null
    expect(row?.userId).toBe(user?.id)
    expect(Date.parse(row?.expires ?? "") - Date.now()).toBeGreaterThan(29 * 86_400_000)
    expect(
      (await db.prepare("SELECT count(*) AS n FROM verification_tokens WHERE identifier = ?").bind(email).first())?.n,
    ).toBe(0)

    const session = (await (await b.request(`${AUTH}/session`)).json()) as { user?: { email?: string } }
    expect(session.user?.email).toBe(email)

    const signOut = await b.request(formPost(`${BASE_PATH}/signout`, { csrfToken: await csrfToken(b) }))
    expect(signOut.status).toBe(302)
    expect(setCookies(signOut).get(SESSION_COOKIE)?.value).toBe("")
    expect(await db.prepare("SELECT * FROM sessions WHERE sessionToken = ?").bind(sessionToken).first()).toBeNull()
    // The old token no longer opens a session, even if a browser kept it.
    const replay = await fetch(`${AUTH}/session`, { headers: { cookie: `${SESSION_COOKIE}=${sessionToken}` } })
    expect(await replay.json()).toBeNull()
  })

  it("the sign-in rate limit counts in D1: a link request over the limit is refused and sends nothing", async () => {
    const db = await d1()
    const email = `flood-${crypto.randomUUID().slice(0, 8)}@example.test`
    const b = browser()
    for (let i = 0; i < RATE_LIMIT_MAX; i++) {
      const { res, mail } = await requestLink(b, email)
      expect(res.headers.get("location")).toContain("/verify-request")
      expect(mail).toBeDefined()
    }
    const { res, mail } = await requestLink(b, email)
    expect(res.status).toBe(302)
    // The form's callbackUrl goes back to the page with the error, so a later try lands where this one was going.
    expect(res.headers.get("location")).toBe(
      `${AUTH}/signin?error=RateLimited&callbackUrl=${encodeURIComponent(LANDING)}`,
    )
    expect(mail).toBeUndefined()
    // Keyed by HMACs (no address in the table): the identifier's window holds every attempt, and the client address
    // (CF-Connecting-IP, which miniflare sets as Cloudflare does) has its own.
    const results: { key: string; count: number }[] = (
      await db.prepare(`SELECT key, count FROM ${RATE_LIMIT_TABLE}`).all()
    ).results
    const counts = results.map((r) => `${r.key.split(":")[0]}=${r.count}`)
    expect(counts).toContain(`id=${RATE_LIMIT_MAX + 1}`)
    expect(counts.some((c) => c.startsWith("ip="))).toBe(true)
    expect(results.every((r) => !r.key.includes(email))).toBe(true)
  })

  it("the Worker's D1Store and this process's share one state: a claim there is a row here, and the other way", async () => {
    const db = await d1()
    const here = D1Store(db)
    const key = `gatehouse:shared:${crypto.randomUUID()}`
    expect(await callStore("claim", key, "from-worker", 60)).toBe(true)
    expect(await here.get(key)).toBe("from-worker")
    expect(await here.claim(key, "from-node", 60)).toBe(false)
    const row = await db.prepare(`SELECT value FROM ${STORE_TABLE} WHERE key = ?`).bind(key).first()
    expect(row).toEqual({ value: "from-worker" })
    await here.delete(key)
    expect(await callStore("claim", key, "again", 60)).toBe(true)
  })

  // The whole conformance suite against the D1Store the Worker holds, each call a request into workerd.
  runStoreConformanceSuite({ name: "d1 inside workerd (calls over HTTP)", store: () => remoteStore })
})

async function callStore(method: string, ...args: unknown[]): Promise<unknown> {
  const res = await fetch(`${origin}/store/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(args),
  })
  if (!res.ok) throw new Error(`/store/${method} answered ${res.status}: ${await res.text()}`)
  return ((await res.json()) as { result: unknown }).result
}

const remoteStore: SharedStore = {
  claim: async (key, value, ttl) => (await callStore("claim", key, value, ttl)) as boolean,
  get: async (key) => (await callStore("get", key)) as string | null,
  set: async (key, value, ttl) => {
    await callStore("set", key, value, ttl)
  },
  delete: async (key) => {
    await callStore("delete", key)
  },
}
