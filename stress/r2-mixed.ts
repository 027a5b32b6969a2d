// R2 mixed: 100 browsers, each a user with its own cookie jar, 80 % session reads, 10 % csrf, 5 % credentials
// sign-in, 5 % sign-out; every answer checked (status, body, every session cookie decodes, no CSRF failure).
import { startApp } from "./lib/app.js"
import { SESSION_COOKIE, csrf, decodeSession, session, sessionCookieOf, signIn, signOut } from "./lib/flows.js"
import { Histogram } from "./lib/histogram.js"
import { Client, type HttpResponse, Jar } from "./lib/http.js"
import { type RunContext, type RunResult, check, fmt, loadAvg } from "./lib/report.js"
import { SECRET } from "./r1-load.js"

type Action = "session" | "csrf" | "signin" | "signout"
const MIX: [Action, number][] = [
  ["session", 0.8],
  ["csrf", 0.1],
  ["signin", 0.05],
  ["signout", 0.05],
]

function pick(): Action {
  let r = Math.random()
  for (const [a, w] of MIX) if ((r -= w) < 0) return a
  return "session"
}

export async function runR2(ctx: RunContext): Promise<RunResult> {
  const app = await startApp({ strategy: "jwt", db: "none", secrets: [SECRET] })
  const clients = 100
  const seconds = ctx.short ? 5 : ctx.r1Seconds >= 60 ? 120 : 30
  const client = new Client(app.origin, clients, 15_000)
  const hist: Record<Action, Histogram> = {
    session: new Histogram(),
    csrf: new Histogram(),
    signin: new Histogram(),
    signout: new Histogram(),
  }
  const count: Record<Action, number> = { session: 0, csrf: 0, signin: 0, signout: 0 }
  const bad = {
    unexpected: 0,
    lostSessions: 0,
    cookieUndecodable: 0,
    csrfFailures: 0,
    socketErrors: 0,
    cookiesIssued: 0,
  }
  const samples: string[] = []
  const note = (what: string) => void (samples.length < 5 && samples.push(what))
  try {
    // Every browser starts signed in; the mix then signs them out and in again at the same rate.
    const jars = Array.from({ length: clients }, () => new Jar())
    await Promise.all(jars.map((jar, i) => signIn(client, jar, `user-${i + 1}`)))
    await app.call({ cmd: "resetStats" })
    const load = loadAvg()
    ctx.log(`R2: ${clients} browsers for ${seconds} s (load average ${load})`)
    const deadline = Date.now() + seconds * 1000
    const checkCookie = async (res: HttpResponse, email: string) => {
      const c = sessionCookieOf(res)
      if (c?.kind !== "set") return
      bad.cookiesIssued++
      const token = await decodeSession(c.value, [SECRET])
      if (!token || token.email !== email) {
        bad.cookieUndecodable++
        note(`cookie that does not decode to ${email}`)
      }
    }
    const browser = async (i: number, jar: Jar) => {
      const user = `user-${i}`
      const email = `${user}@stress.test`
      let signedIn = jar.get(SESSION_COOKIE) !== undefined
      while (Date.now() < deadline) {
        const action = pick()
        const t = performance.now()
        try {
          if (action === "session") {
            const { res, user: u } = await session(client, jar)
            if (res.status !== 200) bad.unexpected++
            else if (signedIn && u?.email !== email) {
              bad.lostSessions++
              note(`session lost for ${email}: ${res.body.slice(0, 80)}`)
            } else if (!signedIn && u !== undefined) {
              bad.unexpected++
              note(`a session after sign-out for ${email}`)
            }
            await checkCookie(res, email)
          } else if (action === "csrf") {
            await csrf(client, jar)
          } else if (action === "signin") {
            const res = await signIn(client, jar, user)
            if (res.status !== 302) bad.unexpected++
            else if (/csrf/i.test(res.location ?? "")) bad.csrfFailures++
            else if (
              !res.location?.startsWith(app.origin) ||
              res.location.startsWith(`${app.origin}/auth/`) ||
              sessionCookieOf(res)?.kind !== "set"
            ) {
              bad.unexpected++
              note(`sign-in of ${user} → ${res.status} ${res.location}`)
            }
            await checkCookie(res, email)
            signedIn = jar.get(SESSION_COOKIE) !== undefined
          } else {
            const res = await signOut(client, jar)
            if (res.status !== 302) bad.unexpected++
            else if (/csrf/i.test(res.location ?? "")) bad.csrfFailures++
            else if (signedIn && sessionCookieOf(res)?.kind !== "cleared") {
              bad.unexpected++
              note(`sign-out of ${user} left the session cookie`)
            }
            signedIn = jar.get(SESSION_COOKIE) !== undefined
          }
          hist[action].record(performance.now() - t)
          count[action]++
        } catch (error) {
          bad.socketErrors++
          note(`${action}: ${(error as Error).message}`)
        }
      }
    }
    const started = performance.now()
    await Promise.all(jars.map((jar, i) => browser(i + 1, jar)))
    const elapsed = (performance.now() - started) / 1000
    const s = await app.stats()
    const total = Object.values(count).reduce((a, b) => a + b, 0)
    const unexpectedStatuses = Object.entries(s.statuses)
      .filter(([code]) => code !== "200" && code !== "302")
      .reduce((a, [, n]) => a + n, 0)
    const rows = (Object.keys(count) as Action[]).map((a) => [
      a,
      fmt.int(count[a]),
      fmt.pct(count[a] / Math.max(total, 1)),
      fmt.ms(hist[a].percentile(50)),
      fmt.ms(hist[a].percentile(99)),
      fmt.ms(hist[a].max),
    ])
    return {
      id: "R2",
      title: "mixed traffic",
      tables: [
        { head: ["action", "count", "share", "p50 ms", "p99 ms", "max ms"], rows },
        {
          head: [
            "actions/s",
            "HTTP requests",
            "server statuses",
            "CPU µs/request",
            "ELD p99 ms",
            "session cookies issued",
            "load avg",
          ],
          rows: [
            [
              fmt.int(total / elapsed),
              fmt.int(s.requests),
              JSON.stringify(s.statuses),
              fmt.int((s.cpuUserUs + s.cpuSystemUs) / Math.max(1, s.requests)),
              fmt.ms(s.eldP99Ms),
              bad.cookiesIssued,
              `${load}→${loadAvg()}`,
            ],
          ],
        },
      ],
      checks: [
        check(
          "R2 unexpected statuses (client view, and server statuses other than 200/302)",
          bad.unexpected + unexpectedStatuses === 0,
          `${bad.unexpected} / ${unexpectedStatuses}`,
        ),
        check("R2 lost sessions", bad.lostSessions === 0, bad.lostSessions),
        check(
          "R2 every issued session cookie decodes to its user",
          bad.cookieUndecodable === 0,
          `${bad.cookieUndecodable} of ${bad.cookiesIssued} failed`,
        ),
        check("R2 CSRF failures", bad.csrfFailures === 0, bad.csrfFailures),
        check("R2 socket errors / timeouts", bad.socketErrors === 0, bad.socketErrors),
        check(
          "R2 unhandled rejections / uncaught exceptions",
          s.unhandledRejections + s.uncaughtExceptions === 0,
          s.unhandledRejections + s.uncaughtExceptions,
        ),
      ],
      notes: [
        `${clients} browsers for ${seconds} s, all signed in at the start; an action is one step (sign-in and sign-out each include their GET /auth/csrf); a signed-out browser's session read must answer null, a signed-in one's its own user.`,
        ...samples.map((x) => `sample: ${x}`),
      ],
    }
  } finally {
    client.close()
    await app.stop()
  }
}
