// R1 load: GET /auth/session with a valid JWE cookie, sequential and 50 / 200 in flight, against the node:http server.
import { startApp } from "./lib/app.js"
import { signIn, SESSION_COOKIE } from "./lib/flows.js"
import { Client, Jar } from "./lib/http.js"
import { type LoadResult, runLoad } from "./lib/load.js"
import { type RunContext, type RunResult, check, fmt, loadAvg } from "./lib/report.js"

export const SECRET = "stress-secret-at-least-32-characters-long-1"

/** A signed-in user's Cookie header for the JWT-strategy app at `origin`. */
export async function sessionCookieHeader(origin: string, username = "user-1"): Promise<string> {
  const client = new Client(origin)
  const jar = new Jar()
  const res = await signIn(client, jar, username)
  client.close()
  if (res.status !== 302 || !jar.get(SESSION_COOKIE))
    throw new Error(`credentials sign-in answered ${res.status} without a session cookie`)
  return jar.header()
}

export function loadRow(name: string, r: LoadResult, load: string): (string | number)[] {
  return [
    name,
    fmt.int(r.opsPerS),
    fmt.ms(r.p50),
    fmt.ms(r.p99),
    fmt.ms(r.p999),
    fmt.ms(r.max),
    fmt.ratio(r.p99 / Math.max(r.p50, 1e-3)),
    fmt.int(r.cpuUsPerOp),
    fmt.ms(r.server.eldP99Ms),
    `${fmt.mb(r.serverStart.rss)}→${fmt.mb(r.server.rss)}`,
    `${fmt.mb(r.serverStart.heapUsed)}→${fmt.mb(r.server.heapUsed)}`,
    r.errors,
    load,
  ]
}

export const LOAD_HEAD = [
  "phase",
  "ops/s",
  "p50 ms",
  "p99 ms",
  "p99.9 ms",
  "max ms",
  "p99/p50",
  "CPU µs/op",
  "ELD p99 ms",
  "RSS MB",
  "heap MB",
  "errors",
  "load avg",
]

export async function runR1(ctx: RunContext): Promise<RunResult & { peakOpsPerS: number }> {
  const app = await startApp({ strategy: "jwt", db: "none", secrets: [SECRET] })
  try {
    const cookie = await sessionCookieHeader(app.origin)
    const verifyBody = (body: string) => body.includes('"email":"user-1@stress.test"')
    const spec = { path: "/auth/session", headers: { cookie }, verifyBody }
    ctx.log(`R1: warm-up against ${app.origin}`)
    await runLoad(app, { ...spec, connections: 50, durationS: ctx.short ? 1 : 3 })
    const rows: (string | number)[][] = []
    const checks = []
    let peak = 0
    for (const connections of [1, 50, 200]) {
      const load = loadAvg()
      ctx.log(`R1: ${connections} in flight for ${ctx.r1Seconds} s (load average ${load})`)
      const r = await runLoad(app, { ...spec, connections, durationS: ctx.r1Seconds })
      peak = Math.max(peak, r.opsPerS)
      const name = connections === 1 ? "sequential" : `${connections} in flight`
      rows.push(loadRow(name, r, `${load}→${loadAvg()}`))
      checks.push(
        check(
          `R1 ${name}: errors (non-2xx, socket, timeouts, wrong body)`,
          r.errors === 0 && r.timeouts === 0,
          r.errors,
        ),
      )
      // A 3-second window on a shared 2-core machine cannot judge a tail ratio: the short run reports it only.
      if (connections > 1)
        checks.push(
          check(
            `R1 ${name}: p99/p50 ≤ 3`,
            ctx.short ? null : r.p99 / r.p50 <= 3,
            `${fmt.ratio(r.p99 / r.p50)} (load average ${load}→${loadAvg()})${ctx.short ? "; short run: reported only" : ""}`,
          ),
        )
    }
    const s = await app.stats()
    checks.push(
      check(
        "R1 unhandled rejections / uncaught exceptions in the server",
        s.unhandledRejections + s.uncaughtExceptions === 0,
        s.unhandledRejections + s.uncaughtExceptions,
      ),
    )
    return {
      id: "R1",
      title: "load: GET /auth/session with a valid JWE cookie",
      tables: [{ head: LOAD_HEAD, rows }],
      checks,
      notes: [
        `${ctx.r1Seconds} s per phase after a warm-up, autocannon in the runner process, server in its own process (${app.backend}); CPU µs/op is the server's user+system time per answered request; ELD = event-loop delay.`,
      ],
      peakOpsPerS: peak,
    }
  } finally {
    await app.stop()
  }
}
