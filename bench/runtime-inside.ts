// The measurement that `npm run bench -- --runtime=edge|workerd|bun|deno` runs INSIDE the other runtime. bench/runtimes.ts
// bundles this file with esbuild (Gatehouse from dist/ under that runtime's export conditions, @auth/core from
// node_modules) into one script and loads it there; nothing here may use Node APIs. The parent drives it with three
// calls: describe() (what runtime this is, which libraries loaded), setup() (mint a session cookie with each library's
// own encode, check every case answers 200 with the user once, and size each timed window) and round(i) (one
// interleaved round of timed windows). Windows are counted in ops, not read off a running clock: workerd freezes
// performance.now() and Date.now() between I/O events, so the clock (passed in by the parent) is read only at the
// edges of a window, and in workerd it is the parent's own clock over a service binding.
import { Auth as AuthJs } from "@auth/core"
import { encode as authjsEncode } from "@auth/core/jwt"
import AuthJsCredentials from "@auth/core/providers/credentials"
// Rewritten to dist/ (or --dist=DIR) by the bundler; src/ is named here only so tsc can check this file before a build.
import { Auth as GatehouseAuth } from "../src/index.js"
import { encode as gatehouseEncode } from "../src/jwt/index.js"
import Credentials from "../src/providers/credentials.js"

/** A clock in milliseconds; the parent supplies it (workerd: its own, over a service binding). */
export type Clock = () => number | Promise<number>

export interface Plan {
  /** Timed window per measurement, ms (turned into an op count by setup()). */
  readonly durationMs: number
  /** Untimed warm-up before each window, ms (also turned into an op count). */
  readonly warmupMs: number
  /** Also time GET /auth/csrf (no cookie) for both libraries. */
  readonly csrf: boolean
  /** Leave Gatehouse out (its Web Crypto build is not in dist/ yet); @auth/core and the reference still run. */
  readonly withoutGatehouse: boolean
}

/** One timed window: `ops` requests in `ms` milliseconds. */
export interface Window {
  readonly id: string
  readonly ops: number
  readonly ms: number
}

export interface Measurement {
  readonly id: string
  readonly lib: "Gatehouse" | "@auth/core" | "reference"
  readonly what: string
}

const ORIGIN = "http://localhost:3000"
const SECRET = "x".repeat(32)
const COOKIE = "authjs.session-token" // an http origin: no __Secure- prefix
const USER = { id: "user-1", name: "Bench User", email: "bench@example.com" }

type Handler = (request: Request) => Promise<Response>
interface Case extends Measurement {
  readonly handler: Handler
  readonly request: () => Request
  readonly mustContain: string
}

const gatehouseConfig = {
  secret: SECRET,
  trustHost: true,
  basePath: "/auth",
  rateLimit: false as const, // @auth/core has no limiter: both libraries do the same work
  providers: [Credentials({ authorize: async () => ({ ...USER }) })],
}
const authjsConfig = {
  secret: SECRET,
  trustHost: true,
  basePath: "/auth",
  providers: [AuthJsCredentials({ authorize: async () => ({ ...USER }) })],
}
const gatehouse: Handler = (r) => GatehouseAuth(r, gatehouseConfig)
// session.updateAge 0: re-encrypt and Set-Cookie on every read, as @auth/core always does (like for like).
const gatehouseEveryReadConfig = { ...gatehouseConfig, session: { updateAge: 0 } }
const gatehouseEveryRead: Handler = (r) => GatehouseAuth(r, gatehouseEveryReadConfig)
const authjs: Handler = (r) => AuthJs(r, authjsConfig)
// The reference: the least a handler can do for the same request (a fixed body of the same shape, read the same way).
const trivialBody = JSON.stringify({
  user: { name: USER.name, email: USER.email },
  expires: "2099-01-01T00:00:00.000Z",
})
const trivial: Handler = async () => new Response(trivialBody, { headers: { "content-type": "application/json" } })

const get = (path: string, cookie?: string) =>
  new Request(`${ORIGIN}${path}`, cookie === undefined ? undefined : { headers: { cookie } })

/** One op: a new Request, the handler, the body read, the status and body checked (so nothing is optimised away). */
async function op(c: Case): Promise<void> {
  const res = await c.handler(c.request())
  const text = await res.text()
  if (res.status !== 200 || !text.includes(c.mustContain))
    throw new Error(`${c.id} (${c.lib}): status ${res.status}, body ${text.slice(0, 120)}`)
}

async function runOps(c: Case, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await op(c)
}

/** Which runtime this script finds itself in, from the globals each one defines. */
function runtimeHere(): { name: string; version: string } {
  const g = globalThis as Record<string, unknown>
  const bun = g.Bun as { version?: string } | undefined
  if (bun?.version) return { name: "bun", version: bun.version }
  const deno = g.Deno as { version?: { deno?: string; v8?: string } } | undefined
  if (deno?.version?.deno) return { name: "deno", version: `${deno.version.deno} (V8 ${deno.version.v8})` }
  if (typeof g.EdgeRuntime === "string") return { name: "edge", version: g.EdgeRuntime }
  const ua = (g.navigator as { userAgent?: string } | undefined)?.userAgent ?? ""
  if (ua.includes("Cloudflare-Workers")) return { name: "workerd", version: ua }
  return { name: "unknown", version: ua }
}

export function describe(): {
  runtime: { name: string; version: string }
  hasProcess: boolean
  hasBuffer: boolean
} {
  const g = globalThis as Record<string, unknown>
  return { runtime: runtimeHere(), hasProcess: typeof g.process !== "undefined", hasBuffer: "Buffer" in g }
}

let cases: Case[] = []
let groups: Case[][] = []
const sizes = new Map<string, { warmup: number; timed: number }>()

/**
 * Mints one session cookie with each library's own encode (same secret, same claims), checks every case answers 200
 * with the user (or the CSRF token) once, then sizes the windows: each case is run in growing batches until a batch
 * takes >= 150 ms (this doubles as its JIT warm-up), and the rate found turns the plan's ms into op counts.
 */
export async function setup(
  plan: Plan,
  clock: Clock,
): Promise<{ measurements: Measurement[]; opsPerSec: Record<string, number> }> {
  const token = { name: USER.name, email: USER.email, sub: USER.id }
  const ajCookie = `${COOKIE}=${await authjsEncode({ token, secret: SECRET, salt: COOKIE })}`
  const session = (id: string, lib: Case["lib"], handler: Handler, cookie: string, what = ""): Case => ({
    id,
    lib,
    what: `GET /auth/session, valid JWT cookie${what}`,
    handler,
    request: () => get("/auth/session", cookie),
    mustContain: USER.email,
  })
  const csrf = (id: string, lib: Case["lib"], handler: Handler): Case => ({
    id,
    lib,
    what: "GET /auth/csrf, no cookie",
    handler,
    request: () => get("/auth/csrf"),
    mustContain: "csrfToken",
  })
  const reference: Case = {
    id: "T",
    lib: "reference",
    what: "trivial handler: new Response(fixed JSON), same Request and body read",
    handler: trivial,
    request: () => get("/auth/session", ajCookie),
    mustContain: USER.email,
  }
  const sessionGroup = [session("A1", "@auth/core", authjs, ajCookie)]
  const csrfGroup = [csrf("A3", "@auth/core", authjs)]
  if (!plan.withoutGatehouse) {
    const ghCookie = `${COOKIE}=${await gatehouseEncode({ token, secret: SECRET, salt: COOKIE })}`
    sessionGroup.unshift(
      session("G1", "Gatehouse", gatehouse, ghCookie),
      session("G1u", "Gatehouse", gatehouseEveryRead, ghCookie, ", session.updateAge 0 (re-encrypt + Set-Cookie)"),
    )
    csrfGroup.unshift(csrf("G3", "Gatehouse", gatehouse))
  }
  groups = [[reference], sessionGroup, ...(plan.csrf ? [csrfGroup] : [])]
  cases = groups.flat()
  for (const c of cases) await op(c) // each answers 200 with the user (or the token) before anything is timed
  // Who re-issues the session cookie on a read: @auth/core always, Gatehouse with updateAge 0, not by default.
  for (const c of sessionGroup) {
    const reissues = (await c.handler(c.request())).headers.get("set-cookie")?.includes(`${COOKIE}=`) ?? false
    if (reissues !== (c.id !== "G1")) throw new Error(`${c.id}: Set-Cookie on a session read is ${reissues}`)
  }

  const opsPerSec: Record<string, number> = {}
  for (const c of cases) {
    let n = 8
    for (;;) {
      const t0 = await clock()
      await runOps(c, n)
      const ms = (await clock()) - t0
      if (ms >= 150 || n >= 1 << 20) {
        const rate = (n / Math.max(ms, 1e-3)) * 1000
        opsPerSec[c.id] = rate
        sizes.set(c.id, {
          warmup: Math.ceil((rate * plan.warmupMs) / 1000),
          timed: Math.max(16, Math.ceil((rate * plan.durationMs) / 1000)),
        })
        break
      }
      n *= 2
    }
  }
  return { measurements: cases.map(({ id, lib, what }) => ({ id, lib, what })), opsPerSec }
}

/** One round: every group's cases back to back, in order in even rounds and reversed in odd ones. */
export async function round(index: number, clock: Clock): Promise<Window[]> {
  const out: Window[] = []
  for (const group of groups) {
    for (const c of index % 2 === 0 ? group : [...group].reverse()) {
      const size = sizes.get(c.id)
      if (!size) throw new Error("round() before setup()")
      await runOps(c, size.warmup)
      const t0 = await clock()
      await runOps(c, size.timed)
      out.push({ id: c.id, ops: size.timed, ms: (await clock()) - t0 })
    }
  }
  return out
}
