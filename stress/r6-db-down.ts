// R6 database down mid-flow: 100 OAuth sign-ins reach the IdP, the database goes away, their callbacks come back;
// each must end on an error page (AdapterError logged, no 5xx, nothing half-written), then the database returns
// and new sign-ins must work at once with no manual step, with no duplicate users.
import { databaseBackend, realPostgres, startApp } from "./lib/app.js"
import { oauthFinish, oauthSignIn, oauthStart, session, signedIn } from "./lib/flows.js"
import { Client, Jar } from "./lib/http.js"
import { opOption, startOp } from "./lib/op.js"
import { inPool } from "./lib/pool.js"
import { type RunContext, type RunResult, check, fmt, sleep } from "./lib/report.js"
import { SECRET } from "./r1-load.js"

const FLOWS = 100

export async function runR6(ctx: RunContext): Promise<RunResult> {
  const op = await startOp()
  const app = await startApp({
    strategy: "database",
    db: databaseBackend(),
    poolMax: 10,
    secrets: [SECRET],
    op: opOption(op),
    adapterTimeout: 3_000,
    proxyDb: true,
  })
  const client = new Client(app.origin, 32, 20_000)
  try {
    // Users signed in before the outage: their sessions must survive it.
    const before: Jar[] = []
    for (let i = 0; i < 10; i++) {
      const { jar, res } = await oauthSignIn(client, op, `r6-before-${i}`)
      if (!signedIn(res, app.origin)) throw new Error(`sign-in before the outage failed: ${res.status} ${res.location}`)
      before.push(jar)
    }
    const subjects = Array.from({ length: FLOWS }, (_, i) => `r6-${i}`)
    const started: { jar: Jar; path: string }[] = []
    await inPool(subjects, 20, async (subject) => {
      const jar = new Jar()
      started.push({ jar, path: await oauthStart(client, jar, op, subject) })
    })
    await app.call({ cmd: "resetStats" })
    ctx.log(
      `R6: ${FLOWS} flows at the IdP; the database goes down (${realPostgres() ? "TCP proxy cut" : "PGlite: every adapter call fails"})`,
    )
    await app.call({ cmd: "dbDown" })
    const down = { errorPage: 0, signedIn: 0, unexpected: 0, codes: {} as Record<string, number>, maxMs: 0 }
    await inPool(started, 20, async ({ jar, path }) => {
      const res = await oauthFinish(client, jar, path)
      down.maxMs = Math.max(down.maxMs, res.ms)
      if (signedIn(res, app.origin)) down.signedIn++
      else if (res.status === 302 && res.location?.includes("error=")) {
        down.errorPage++
        const code = new URL(res.location).searchParams.get("error") ?? "?"
        down.codes[code] = (down.codes[code] ?? 0) + 1
      } else down.unexpected++
    })
    const sessionsDuring = await Promise.all(before.map((jar) => session(client, jar.clone())))
    const readsDuringOk = sessionsDuring.filter((s) => s.res.status === 200).length
    const duringStats = await app.stats()

    await app.call({ cmd: "dbUp" })
    const upAt = performance.now()
    let recoveredMs = -1
    for (let attempt = 0; attempt < 300 && recoveredMs < 0; attempt++) {
      if (signedIn((await oauthSignIn(client, op, `r6-probe-${attempt}`)).res, app.origin))
        recoveredMs = performance.now() - upAt
      else await sleep(100)
    }
    const after = { ok: 0 }
    await inPool(subjects, 20, async (subject) => {
      if (signedIn((await oauthSignIn(client, op, subject)).res, app.origin)) after.ok++
    })
    const kept = (
      await Promise.all(
        before.map((jar, i) => session(client, jar).then((s) => s.user?.email === `r6-before-${i}@op.stress.test`)),
      )
    ).filter(Boolean).length
    const inv = await app.invariants()
    const s = await app.stats()
    const bad =
      Object.entries(s.statuses)
        .filter(([c]) => c !== "200" && c !== "302")
        .reduce((a, [, n]) => a + n, 0) +
      Object.entries(duringStats.statuses)
        .filter(([c]) => c !== "200" && c !== "302")
        .reduce((a, [, n]) => a + n, 0)
    const probes = inv.users - FLOWS - before.length
    return {
      id: "R6",
      title: "database down mid-flow",
      tables: [
        {
          head: [
            "backend",
            "callbacks while down",
            "error page (codes)",
            "signed in",
            "logged while down",
            "slowest callback ms",
            "seconds to recover",
            "new sign-ins after",
            "sessions kept",
            "users / accounts",
          ],
          rows: [
            [
              app.backend,
              FLOWS,
              `${down.errorPage} ${JSON.stringify(down.codes)}`,
              down.signedIn,
              JSON.stringify(duringStats.loggedErrors),
              fmt.int(down.maxMs),
              recoveredMs < 0 ? "not recovered in 30 s" : (recoveredMs / 1000).toFixed(2),
              `${after.ok} / ${FLOWS}`,
              `${kept} / ${before.length}`,
              `${inv.users} / ${inv.accounts}`,
            ],
          ],
        },
      ],
      checks: [
        check(
          "R6 callbacks while down end on an error page (no 5xx, no sign-in)",
          down.errorPage === FLOWS,
          `${down.errorPage} of ${FLOWS} (${down.unexpected} unexpected, ${down.signedIn} signed in)`,
        ),
        check(
          "R6 the failure is logged as AdapterError",
          (duringStats.loggedErrors.AdapterError ?? 0) >= FLOWS,
          JSON.stringify(duringStats.loggedErrors),
        ),
        check(
          "R6 session reads while down answer 200",
          readsDuringOk === before.length,
          `${readsDuringOk} of ${before.length}`,
        ),
        check(
          "R6 recovers with no manual step",
          recoveredMs >= 0,
          recoveredMs < 0 ? "no" : `${(recoveredMs / 1000).toFixed(2)} s after the database returned`,
        ),
        check("R6 new sign-ins after recovery succeed", after.ok === FLOWS, `${after.ok} of ${FLOWS}`),
        check(
          "R6 sessions from before the outage kept (0 lost sessions)",
          kept === before.length,
          `${kept} of ${before.length}`,
        ),
        check(
          "R6 duplicate users / accounts",
          inv.duplicateUsers + inv.duplicateAccounts === 0,
          `${inv.duplicateUsers} / ${inv.duplicateAccounts}`,
        ),
        check(
          "R6 one user per IdP account (users = flows + earlier + probes)",
          probes >= 1 && inv.users === inv.accounts,
          `${inv.users} users, ${inv.accounts} accounts`,
        ),
        check(
          "R6 orphan rows and half sign-ins",
          inv.sessionsWithoutUser + inv.accountsWithoutUser + inv.opUsersWithoutAccount === 0,
          `${inv.sessionsWithoutUser} / ${inv.accountsWithoutUser} / ${inv.opUsersWithoutAccount}`,
        ),
        check("R6 unexpected statuses (server, non-200/302)", bad === 0, bad),
        check(
          "R6 unhandled rejections / uncaught exceptions",
          s.unhandledRejections + s.uncaughtExceptions === 0,
          s.unhandledRejections + s.uncaughtExceptions,
        ),
      ],
      notes: [
        `logged while down, first lines: ${duringStats.sampleErrors.slice(0, 3).join(" | ")}`,
        realPostgres()
          ? "PostgreSQL through a TCP proxy in the server process: the proxy drops every connection and refuses new ones while down; the pg Pool reconnects by itself (the app listens for the pool's idle-client errors, as pg requires)."
          : "PGlite cannot be stopped from outside: a wrapper makes every adapter call fail while down (set DATABASE_URL to cut a real connection).",
      ],
    }
  } finally {
    client.close()
    await app.stop()
    await op.stop()
  }
}
