// R5 fault injection: the adapter fails 1 % and then 10 % of its calls, answers 2 s late on some and hangs on a few,
// under session reads, OAuth sign-ins and e-mail sign-ins (each link opened twice at once: never two sessions); every request must still be answered in bounded time with an expected
// status, nothing may reject unhandled, and the rows must stay whole (no session or account without its user).
import { databaseBackend, startApp } from "./lib/app.js"
import { emailLink, oauthSignIn, session, signedIn } from "./lib/flows.js"
import { Histogram } from "./lib/histogram.js"
import { Client, Jar } from "./lib/http.js"
import { opOption, startOp } from "./lib/op.js"
import type { FaultPlan } from "./lib/protocol.js"
import { type RunContext, type RunResult, check, fmt, loadAvg, sleep } from "./lib/report.js"
import { SECRET } from "./r1-load.js"

const ADAPTER_TIMEOUT_MS = 3_000
/** A request waits on at most a handful of adapter calls in a row; each gives up after the adapter timeout. */
const ANSWER_BOUND_MS = 5 * ADAPTER_TIMEOUT_MS

export async function runR5(ctx: RunContext): Promise<RunResult> {
  const op = await startOp()
  const app = await startApp({
    strategy: "database",
    db: databaseBackend(),
    poolMax: 10,
    secrets: [SECRET],
    op: opOption(op),
    adapterTimeout: ADAPTER_TIMEOUT_MS,
    email: true,
  })
  const client = new Client(app.origin, 64, ANSWER_BOUND_MS + 5_000)
  const rows: (string | number)[][] = []
  const checks = []
  const notes: string[] = []
  let subjectSeq = 0
  let linksReused = 0
  const takeMail = (email: string) => app.call<string | null>({ cmd: "takeMail", email })
  try {
    const tokens = await app.call<string[]>({ cmd: "seedSessions", n: 50 })
    const seconds = ctx.short ? 3 : 20
    const workers = 20
    for (const failRate of [0.01, 0.1]) {
      const plan: FaultPlan = { failRate, slowRate: 0.015, slowMs: 2_000, hangRate: 0.002 }
      await app.call({ cmd: "resetStats" })
      await app.call({ cmd: "setFaults", plan })
      const load = loadAvg()
      ctx.log(`R5: ${fmt.pct(failRate)} failing, ${workers} workers for ${seconds} s`)
      const out = {
        sessionOk: 0,
        sessionNull: 0,
        signInOk: 0,
        signInError: 0,
        unexpected: 0,
        lateOrLost: 0,
        requests: 0,
        linkOk: 0,
        linkFailed: 0,
        linkReused: 0,
        noLink: 0,
      }
      const errorCodes: Record<string, number> = {}
      const latency = new Histogram()
      const deadline = Date.now() + seconds * 1000
      const worker = async (w: number) => {
        while (Date.now() < deadline) {
          const t = performance.now()
          try {
            const pick = Math.random()
            if (pick < 0.7) {
              const jar = new Jar()
              jar.cookies.set("authjs.session-token", tokens[(w * 7 + out.requests) % tokens.length] as string)
              const { res, user } = await session(client, jar)
              out.requests++
              if (res.status !== 200) out.unexpected++
              else if (user) out.sessionOk++
              else out.sessionNull++
            } else if (pick < 0.8) {
              // An e-mail sign-in whose link is opened twice at once (a double click, a mail scanner): at most one session.
              const { res, path } = await emailLink(client, new Jar(), takeMail, `r5-mail-${subjectSeq++}@stress.test`)
              out.requests += 2
              if (!path) {
                if (res.status === 302 && res.location?.includes("error=")) out.noLink++
                else out.unexpected++
              } else {
                const clicks = await Promise.all([
                  client.send("GET", path, { jar: new Jar() }),
                  client.send("GET", path, { jar: new Jar() }),
                ])
                out.requests += 2
                const sessions = clicks.filter((r) => signedIn(r, app.origin)).length
                if (sessions === 2) out.linkReused++
                else if (sessions === 1) out.linkOk++
                else out.linkFailed++
                out.unexpected += clicks.filter((r) => r.status !== 302).length
              }
            } else {
              const { res } = await oauthSignIn(client, op, `r5-${failRate}-${subjectSeq++}`)
              out.requests += 4
              if (signedIn(res, app.origin)) out.signInOk++
              else if (res.status === 302 && res.location?.includes("error=")) {
                out.signInError++
                const code = new URL(res.location).searchParams.get("error") ?? "?"
                errorCodes[code] = (errorCodes[code] ?? 0) + 1
              } else out.unexpected++
            }
          } catch {
            // No answer within the bound (or a reset socket): a request the server lost.
            out.lateOrLost++
          }
          latency.record(performance.now() - t)
        }
      }
      await Promise.all(Array.from({ length: workers }, (_, i) => worker(i)))
      await app.call({ cmd: "setFaults", plan: null })
      const s = await app.stats()
      const serverBad = Object.entries(s.statuses)
        .filter(([c]) => c !== "200" && c !== "302")
        .reduce((a, [, n]) => a + n, 0)
      rows.push([
        fmt.pct(failRate),
        s.faults.calls,
        `${s.faults.thrown} / ${s.faults.slowed} / ${s.faults.hung}`,
        out.sessionOk,
        out.sessionNull,
        out.signInOk,
        `${out.signInError} ${JSON.stringify(errorCodes)}`,
        `${out.linkOk} / ${out.linkFailed + out.noLink} / ${out.linkReused}`,
        JSON.stringify(s.loggedErrors),
        fmt.ms(latency.percentile(99)),
        fmt.ms(latency.max),
        fmt.pct(
          (out.sessionOk + out.sessionNull + out.signInOk + out.signInError + out.unexpected) /
            Math.max(
              1,
              out.sessionOk + out.sessionNull + out.signInOk + out.signInError + out.unexpected + out.lateOrLost,
            ),
        ),
        `${load}→${loadAvg()}`,
      ])
      checks.push(
        check(
          `R5 ${fmt.pct(failRate)}: unexpected statuses (client / server non-200/302)`,
          out.unexpected + serverBad === 0,
          `${out.unexpected} / ${serverBad}`,
        ),
      )
      checks.push(
        check(
          `R5 ${fmt.pct(failRate)}: answered within ${ANSWER_BOUND_MS / 1000} s`,
          out.lateOrLost === 0,
          `${out.lateOrLost} not answered`,
        ),
      )
      linksReused += out.linkReused
      checks.push(
        check(
          `R5 ${fmt.pct(failRate)}: e-mail links opened twice at once signed in (of ${out.linkOk + out.linkFailed + out.linkReused})`,
          out.linkOk > 0,
          `${out.linkOk} once, ${out.linkFailed} refused both times`,
        ),
      )
      checks.push(
        check(
          `R5 ${fmt.pct(failRate)}: unhandled rejections / uncaught exceptions`,
          s.unhandledRejections + s.uncaughtExceptions === 0,
          s.unhandledRejections + s.uncaughtExceptions,
        ),
      )
      if (s.sampleErrors.length > 0)
        notes.push(`${fmt.pct(failRate)} sample logged errors: ${s.sampleErrors.slice(0, 3).join(" | ")}`)
    }
    // After the faults: rows whole, and the app works again at once.
    await sleep(200)
    const inv = await app.invariants()
    let after = 0
    for (let i = 0; i < 10; i++) if (signedIn((await oauthSignIn(client, op, `r5-after-${i}`)).res, app.origin)) after++
    checks.push(
      check(
        "R5 orphan rows: sessions / accounts without user",
        inv.sessionsWithoutUser + inv.accountsWithoutUser === 0,
        `${inv.sessionsWithoutUser} / ${inv.accountsWithoutUser}`,
      ),
    )
    // A user row left without its account keeps its e-mail, so the same IdP account can no longer sign in (its new
    // user would take a used e-mail; linking to the old one needs allowDangerousEmailAccountLinking).
    let lockedOut = 0
    const lockedCodes = new Set<string>()
    for (const email of inv.opUsersWithoutAccountEmails) {
      const { res } = await oauthSignIn(client, op, email.split("@")[0] as string)
      if (signedIn(res, app.origin)) continue
      lockedOut++
      lockedCodes.add(new URL(res.location ?? "", app.origin).searchParams.get("error") ?? String(res.status))
    }
    const locked = `${lockedOut} of them cannot sign in again${lockedCodes.size > 0 ? `: ${[...lockedCodes].join(", ")}` : ""}`
    checks.push(
      check(
        "R5 half sign-ins: OAuth users without their account (those locked out)",
        inv.opUsersWithoutAccount === 0,
        `${inv.opUsersWithoutAccount} (${locked})`,
      ),
    )
    checks.push(
      check(
        "R5 duplicate users / accounts",
        inv.duplicateUsers + inv.duplicateAccounts === 0,
        `${inv.duplicateUsers} / ${inv.duplicateAccounts}`,
      ),
    )
    checks.push(check("R5 sign-ins succeed once the faults stop", after === 10, `${after} of 10`))
    checks.push(
      check("R5 no verification token used twice", linksReused === 0, `${linksReused} link(s) gave two sessions`),
    )
    return {
      id: "R5",
      title: "adapter fault injection",
      tables: [
        {
          head: [
            "failing",
            "adapter calls",
            "thrown / 2 s late / hung",
            "session ok",
            "session null",
            "sign-in ok",
            "sign-in error (codes)",
            "e-mail links: once / refused / twice",
            "errors logged by type",
            "p99 ms",
            "max ms",
            "answered",
            "load avg",
          ],
          rows,
        },
      ],
      checks,
      notes: [
        `${app.backend}; adapterTimeout ${ADAPTER_TIMEOUT_MS} ms; besides the failures, 1.5 % of calls answer 2 s late (so the adapter's p99 is 2 s) and 0.2 % hang until the run ends. 70 % of the work is session reads of 50 seeded sessions, 20 % whole OAuth sign-ins (4 requests each) with new IdP accounts, 10 % e-mail sign-ins whose link two browsers open at once.`,
        ...notes,
      ],
    }
  } finally {
    client.close()
    await app.stop()
    await op.stop()
  }
}
