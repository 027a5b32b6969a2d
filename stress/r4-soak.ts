// R4 soak: session reads at half the R1 peak plus a steady trickle of sign-in / sign-out cycles, sampling the server's
// heap (after a forced GC), RSS, handles and file descriptors to show that nothing grows.
import { startApp } from "./lib/app.js"
import { session, signIn, signOut } from "./lib/flows.js"
import { Client, Jar } from "./lib/http.js"
import { runLoad } from "./lib/load.js"
import { type RunContext, type RunResult, check, fmt, loadAvg, sleep } from "./lib/report.js"
import { SECRET, sessionCookieHeader } from "./r1-load.js"

interface Sample {
  t: number
  heap: number
  rss: number
  handles: number
  fds: number
}

/** Least-squares slope of y over x. */
function slope(points: { x: number; y: number }[]): number {
  const n = points.length
  if (n < 2) return 0
  const mx = points.reduce((a, p) => a + p.x, 0) / n
  const my = points.reduce((a, p) => a + p.y, 0) / n
  const num = points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0)
  const den = points.reduce((a, p) => a + (p.x - mx) ** 2, 0)
  return den === 0 ? 0 : num / den
}

export async function runR4(ctx: RunContext, r1Peak?: number): Promise<RunResult> {
  const app = await startApp({ strategy: "jwt", db: "none", secrets: [SECRET] })
  const client = new Client(app.origin, 8)
  try {
    const cookies: string[] = []
    for (let i = 1; i <= 20; i++) cookies.push(await sessionCookieHeader(app.origin, `user-${i}`))
    let peak = r1Peak
    if (!peak) {
      ctx.log("R4: measuring the R1 peak (50 in flight, 3 s)")
      peak = (
        await runLoad(app, {
          path: "/auth/session",
          headers: { cookie: cookies[0] as string },
          connections: 50,
          durationS: 3,
        })
      ).opsPerS
    }
    const rate = Math.max(10, Math.round(peak / 2))
    const loadStart = loadAvg()
    ctx.log(
      `R4: soak for ${ctx.soakSeconds} s at ${rate} req/s (half of ${fmt.int(peak)}) plus sign-in/out cycles; load average ${loadStart}`,
    )

    // The trickle: full sign-in → read → sign-out → read cycles, each checked.
    let stop = false
    const cycles = { done: 0, lost: 0, notEnded: 0, unexpected: 0 }
    const trickle = (async () => {
      let n = 0
      while (!stop) {
        const started = Date.now()
        const user = `user-${100 + (n++ % 500)}`
        const jar = new Jar()
        try {
          const res = await signIn(client, jar, user)
          if (res.status !== 302) cycles.unexpected++
          const a = await session(client, jar)
          if (a.user?.email !== `${user}@stress.test`) cycles.lost++
          const out = await signOut(client, jar)
          if (out.status !== 302) cycles.unexpected++
          const b = await session(client, jar)
          if (b.user !== undefined) cycles.notEnded++
          cycles.done++
        } catch {
          cycles.unexpected++
        }
        await sleep(Math.max(0, 100 - (Date.now() - started)))
      }
    })()

    const samples: Sample[] = []
    const sampleEvery = ctx.short ? 1_000 : 10_000
    const t0 = Date.now()
    const sampler = (async () => {
      while (!stop) {
        const heap = await app.call<number>({ cmd: "gc" })
        const s = await app.stats()
        samples.push({ t: (Date.now() - t0) / 1000, heap, rss: s.rss, handles: s.handles, fds: s.fds })
        await sleep(sampleEvery)
      }
    })()
    const load = await runLoad(app, {
      path: "/auth/session",
      requests: cookies.map((cookie) => ({ path: "/auth/session", headers: { cookie } })),
      connections: 20,
      durationS: ctx.soakSeconds,
      overallRate: rate,
      verifyBody: (body) => body.includes("@stress.test"),
    })
    stop = true
    await Promise.all([trickle, sampler])
    const end = await app.stats()

    // The first 10 % (at least one sample) is warm-up: JIT, caches and keep-alive sockets filling.
    const steady = samples.slice(Math.max(1, Math.floor(samples.length / 10)))
    const heapSlopePer10Min = (slope(steady.map((s) => ({ x: s.t, y: s.heap }))) * 600) / 2 ** 20
    const rssSlopePer10Min = (slope(steady.map((s) => ({ x: s.t, y: s.rss }))) * 600) / 2 ** 20
    const first = steady[0] as Sample
    const last = steady[steady.length - 1] as Sample
    const maxOf = (k: keyof Sample) => Math.max(...steady.map((s) => s[k]))
    const pick = samples.filter(
      (_, i) => i === 0 || i === samples.length - 1 || i % Math.max(1, Math.floor(samples.length / 6)) === 0,
    )
    const checks = [
      check(
        "R4 heap slope < 1 MB per 10 min",
        ctx.short ? null : heapSlopePer10Min < 1,
        `${heapSlopePer10Min.toFixed(2)} MB/10 min${ctx.short ? " (short run: too short to judge, reported only)" : ""}`,
      ),
      check(
        "R4 handles flat (steady first → last, max)",
        last.handles - first.handles <= 2,
        `${first.handles} → ${last.handles} (max ${maxOf("handles")})`,
      ),
      check(
        "R4 file descriptors flat (steady first → last, max)",
        last.fds - first.fds <= 2,
        `${first.fds} → ${last.fds} (max ${maxOf("fds")})`,
      ),
      check(
        "R4 load errors (non-2xx, socket, timeouts, wrong body)",
        load.errors === 0 && load.timeouts === 0,
        load.errors,
      ),
      check(
        "R4 sign-in/out cycles: lost sessions, sessions not ended, unexpected statuses",
        cycles.lost + cycles.notEnded + cycles.unexpected === 0,
        `${cycles.lost} / ${cycles.notEnded} / ${cycles.unexpected} in ${cycles.done} cycles`,
      ),
      check(
        "R4 unhandled rejections / uncaught exceptions",
        end.unhandledRejections + end.uncaughtExceptions === 0,
        end.unhandledRejections + end.uncaughtExceptions,
      ),
    ]
    return {
      id: "R4",
      title: "soak",
      tables: [
        {
          head: [
            "duration s",
            "rate req/s",
            "requests",
            "p50 ms",
            "p99 ms",
            "p99.9 ms",
            "max ms",
            "CPU µs/op",
            "ELD p99 ms",
            "cycles",
            "heap slope MB/10 min",
            "RSS slope MB/10 min",
            "load avg",
          ],
          rows: [
            [
              fmt.int(load.durationS),
              rate,
              fmt.int(load.requests),
              fmt.ms(load.p50),
              fmt.ms(load.p99),
              fmt.ms(load.p999),
              fmt.ms(load.max),
              fmt.int(load.cpuUsPerOp),
              fmt.ms(load.server.eldP99Ms),
              cycles.done,
              heapSlopePer10Min.toFixed(2),
              rssSlopePer10Min.toFixed(2),
              `${loadStart}→${loadAvg()}`,
            ],
          ],
        },
        {
          title: "Samples (heap after a forced GC)",
          head: ["t s", "heap MB", "RSS MB", "handles", "fds"],
          rows: pick.map((s) => [s.t.toFixed(0), fmt.mb(s.heap), fmt.mb(s.rss), s.handles, s.fds]),
        },
      ],
      checks,
      notes: [
        `${samples.length} samples every ${sampleEvery / 1000} s; slopes are least-squares fits over the samples after the first 10 %. Handles are libuv's active resources without timers.`,
      ],
    }
  } finally {
    client.close()
    await app.stop()
  }
}
