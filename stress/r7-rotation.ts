// R7 secret rotation under load: 200 signed-in browsers read their session through [S1] → [S2, S1] → [S2].
// In phase 2 every S1 cookie is accepted and re-issued under S2 (counted by the JWE kid); in phase 3 the active
// browsers stay signed in and the S1 cookies that sat idle are refused and expired. No 5xx at any point.
import { startApp } from "./lib/app.js"
import { SESSION_COOKIE, decodeSession, session, sessionCookieOf, signIn } from "./lib/flows.js"
import { Client, Jar } from "./lib/http.js"
import { inPool } from "./lib/pool.js"
import { type RunContext, type RunResult, check, fmt, loadAvg } from "./lib/report.js"
import { encode } from "../src/jwt/index.js"

const S1 = "stress-rotation-secret-one-at-least-32-chars"
const S2 = "stress-rotation-secret-two-at-least-32-chars"

/** The `kid` of a compact JWE's protected header. */
function kidOf(jwe: string): string | undefined {
  try {
    return (JSON.parse(Buffer.from(jwe.split(".")[0] ?? "", "base64url").toString("utf8")) as { kid?: string }).kid
  } catch {
    return undefined
  }
}

interface PhaseFigures {
  requests: number
  signedIn: number
  lost: number
  s1Presented: number
  reissuedS2: number
  fivexx: number
  errors: number
  opsPerS: number
}

export async function runR7(ctx: RunContext): Promise<RunResult> {
  const app = await startApp({ strategy: "jwt", db: "none", secrets: [S1] })
  const inFlight = 200
  const client = new Client(app.origin, inFlight, 15_000)
  const seconds = ctx.short ? 2 : ctx.r1Seconds >= 60 ? 60 : 10
  try {
    const kid1 = kidOf(await encode({ token: { sub: "x" }, secret: S1, salt: SESSION_COOKIE }))
    const kid2 = kidOf(await encode({ token: { sub: "x" }, secret: S2, salt: SESSION_COOKIE }))
    const users = Array.from({ length: inFlight }, (_, i) => `user-${i + 1}`)
    const active: Jar[] = users.map(() => new Jar())
    const idle: Jar[] = users.slice(0, 50).map(() => new Jar())
    await inPool(users, 50, async (u, i) => void (await signIn(client, active[i] as Jar, u)))
    await inPool(users.slice(0, 50), 50, async (u, i) => void (await signIn(client, idle[i] as Jar, u)))

    const phase = async (secrets: string[], phaseSeconds = seconds): Promise<PhaseFigures> => {
      await app.call({ cmd: "setSecrets", secrets })
      const f: PhaseFigures = {
        requests: 0,
        signedIn: 0,
        lost: 0,
        s1Presented: 0,
        reissuedS2: 0,
        fivexx: 0,
        errors: 0,
        opsPerS: 0,
      }
      const deadline = Date.now() + phaseSeconds * 1000
      const t = performance.now()
      await Promise.all(
        active.map(async (jar, i) => {
          const email = `${users[i]}@stress.test`
          while (Date.now() < deadline) {
            const presented = jar.get(SESSION_COOKIE) ?? ""
            const wasS1 = kidOf(presented) === kid1
            try {
              const { res, user } = await session(client, jar)
              f.requests++
              if (res.status >= 500) f.fivexx++
              if (user?.email === email) f.signedIn++
              else f.lost++
              if (wasS1) {
                f.s1Presented++
                const c = sessionCookieOf(res)
                if (
                  c?.kind === "set" &&
                  kidOf(c.value) === kid2 &&
                  (await decodeSession(c.value, [S2]))?.email === email
                )
                  f.reissuedS2++
              }
            } catch {
              f.errors++
            }
          }
        }),
      )
      f.opsPerS = f.requests / ((performance.now() - t) / 1000)
      return f
    }

    const load = loadAvg()
    ctx.log(`R7: ${inFlight} in flight, ${seconds} s per phase`)
    await phase([S1], 1) // warm-up (JIT), so the phases compare like with like
    const p1 = await phase([S1])
    const p2 = await phase([S2, S1])
    const stillS1 = active.filter((jar) => kidOf(jar.get(SESSION_COOKIE) ?? "") !== kid2).length
    const p3 = await phase([S2])
    // The browsers that slept through phase 2 come back with S1 cookies.
    let idleRefused = 0
    let idleExpired = 0
    let idleFivexx = 0
    for (const jar of idle) {
      const { res, user } = await session(client, jar)
      if (res.status >= 500) idleFivexx++
      if (user === undefined) idleRefused++
      if (sessionCookieOf(res)?.kind === "cleared") idleExpired++
    }
    const s = await app.stats()
    const row = (name: string, f: PhaseFigures) => [
      name,
      fmt.int(f.opsPerS),
      fmt.pct((f.opsPerS - p1.opsPerS) / p1.opsPerS),
      f.requests,
      f.signedIn,
      f.lost,
      f.s1Presented,
      f.reissuedS2,
      f.fivexx,
      f.errors,
    ]
    return {
      id: "R7",
      title: "secret rotation under load",
      tables: [
        {
          head: [
            "phase",
            "ops/s",
            "change",
            "reads",
            "signed in",
            "signed out",
            "S1 cookies presented",
            "re-issued under S2 (kid)",
            "5xx",
            "socket errors",
          ],
          rows: [row("1 [S1]", p1), row("2 [S2, S1]", p2), row("3 [S2]", p3)],
        },
        {
          head: ["idle S1 browsers in phase 3", "refused", "cookie expired", "5xx", "load avg"],
          rows: [[idle.length, idleRefused, idleExpired, idleFivexx, `${load}→${loadAvg()}`]],
        },
      ],
      checks: [
        check(
          "R7 5xx in all phases",
          p1.fivexx + p2.fivexx + p3.fivexx + idleFivexx === 0,
          p1.fivexx + p2.fivexx + p3.fivexx + idleFivexx,
        ),
        check(
          "R7 signs no one out (active browsers, all phases)",
          p1.lost + p2.lost + p3.lost === 0,
          p1.lost + p2.lost + p3.lost,
        ),
        check(
          "R7 phase 2: every S1 cookie accepted and re-issued under S2",
          p2.s1Presented === inFlight && p2.reissuedS2 === p2.s1Presented,
          `${p2.reissuedS2} of ${p2.s1Presented} (kid ${kid1?.slice(0, 8)}… → ${kid2?.slice(0, 8)}…)`,
        ),
        check("R7 active browsers on S2 before phase 3", stillS1 === 0, `${stillS1} still on S1`),
        check(
          "R7 phase 3: idle S1 cookies refused and expired",
          idleRefused === idle.length && idleExpired === idle.length,
          `${idleRefused} refused, ${idleExpired} expired of ${idle.length}`,
        ),
        check("R7 socket errors", p1.errors + p2.errors + p3.errors === 0, p1.errors + p2.errors + p3.errors),
        check(
          "R7 unhandled rejections / uncaught exceptions",
          s.unhandledRejections + s.uncaughtExceptions === 0,
          s.unhandledRejections + s.uncaughtExceptions,
        ),
      ],
      notes: [
        `${inFlight} browsers each keep one request in flight; ${seconds} s per phase; the rotation swaps the config object of the running server, as a redeploy would.`,
      ],
    }
  } finally {
    client.close()
    await app.stop()
  }
}
