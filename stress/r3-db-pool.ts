// R3 DB pool: database sessions, a pg Pool of 5, 200 requests in flight: every GET /auth/session reads its session
// and user from PostgreSQL; reports latency, the time requests waited for a pooled connection, and errors.
import { databaseBackend, startApp } from "./lib/app.js"
import { runLoad } from "./lib/load.js"
import { type RunContext, type RunResult, check, fmt, loadAvg } from "./lib/report.js"
import { SECRET } from "./r1-load.js"

export async function runR3(ctx: RunContext): Promise<RunResult> {
  const app = await startApp({ strategy: "database", db: databaseBackend(), poolMax: 5, secrets: [SECRET] })
  try {
    const users = 200
    const tokens = await app.call<string[]>({ cmd: "seedSessions", n: users })
    const requests = tokens.map((t) => ({ path: "/auth/session", headers: { cookie: `authjs.session-token=${t}` } }))
    const seconds = ctx.short ? 3 : ctx.r1Seconds
    ctx.log(`R3: 200 in flight for ${seconds} s on ${app.backend}`)
    await runLoad(app, { path: "/auth/session", requests, connections: 50, durationS: 1 })
    const load = loadAvg()
    const r = await runLoad(app, {
      path: "/auth/session",
      requests,
      connections: 200,
      durationS: seconds,
      verifyBody: (b) => b.includes("@stress.test"),
    })
    const inv = await app.invariants()
    const s = r.server
    const pooled = s.poolWaitP99Ms !== undefined
    return {
      id: "R3",
      title: "database sessions on a pool of 5, 200 in flight",
      tables: [
        {
          head: [
            "backend",
            "ops/s",
            "p50 ms",
            "p99 ms",
            "p99.9 ms",
            "max ms",
            "pool wait p50 / p99 / max ms",
            "max queue",
            "CPU µs/op",
            "ELD p99 ms",
            "errors",
            "load avg",
          ],
          rows: [
            [
              app.backend,
              fmt.int(r.opsPerS),
              fmt.ms(r.p50),
              fmt.ms(r.p99),
              fmt.ms(r.p999),
              fmt.ms(r.max),
              pooled
                ? `${fmt.ms(s.poolWaitP50Ms ?? 0)} / ${fmt.ms(s.poolWaitP99Ms ?? 0)} / ${fmt.ms(s.poolWaitMaxMs ?? 0)}`
                : "n/a (PGlite: one connection, no pool)",
              s.poolMaxWaiting ?? "n/a",
              fmt.int(r.cpuUsPerOp),
              fmt.ms(s.eldP99Ms),
              r.errors,
              `${load}→${loadAvg()}`,
            ],
          ],
        },
      ],
      checks: [
        check("R3 errors (non-2xx, socket, timeouts, wrong body)", r.errors === 0 && r.timeouts === 0, r.errors),
        check("R3 lost sessions (sessions rows before → after)", inv.sessions === users, `${users} → ${inv.sessions}`),
        check(
          "R3 orphan rows (sessions / accounts without user)",
          inv.sessionsWithoutUser + inv.accountsWithoutUser === 0,
          `${inv.sessionsWithoutUser} / ${inv.accountsWithoutUser}`,
        ),
        check("R3 adapter errors logged", Object.keys(s.loggedErrors).length === 0, JSON.stringify(s.loggedErrors)),
        check(
          "R3 unhandled rejections / uncaught exceptions",
          s.unhandledRejections + s.uncaughtExceptions === 0,
          s.unhandledRejections + s.uncaughtExceptions,
        ),
      ],
      notes: [
        `${users} users with a session row each, requests spread over them; ${seconds} s. Pool wait is the time from a checkout request to the connection (queue wait), measured on the pg Pool.`,
      ],
    }
  } finally {
    await app.stop()
  }
}
