// Stress harness: a timed HTTP load with autocannon (fixed requests, keep-alive, N in flight), latencies kept at
// sub-millisecond resolution in our own histogram (autocannon's rounds to whole ms), and the server's own figures.
import autocannon from "autocannon"
import type { App } from "./app.js"
import { Histogram } from "./histogram.js"
import type { ServerStats } from "./protocol.js"

export interface LoadSpec {
  path: string
  /** Requests in flight (autocannon connections, no pipelining). */
  connections: number
  durationS: number
  headers?: Record<string, string>
  /** Cycle through these instead of one fixed request (e.g. one cookie per user). */
  requests?: { path: string; headers?: Record<string, string> }[]
  /** Cap on requests per second over all connections (R4's 50 % of the R1 peak). */
  overallRate?: number
  /** Checked on every answer; a false counts as a mismatch. */
  verifyBody?: (body: string) => boolean
  /** Client-side timeout per request, seconds. */
  timeoutS?: number
}

export interface LoadResult {
  requests: number
  durationS: number
  opsPerS: number
  p50: number
  p99: number
  p999: number
  max: number
  /** Socket errors + timeouts + non-2xx answers + body mismatches. */
  errors: number
  non2xx: number
  mismatches: number
  timeouts: number
  statuses: Record<string, number>
  server: ServerStats
  serverStart: ServerStats
  /** Server CPU (user + system) per answered request, µs. */
  cpuUsPerOp: number
}

export async function runLoad(app: App, spec: LoadSpec): Promise<LoadResult> {
  await app.call({ cmd: "gc" })
  await app.call({ cmd: "resetStats" })
  const serverStart = await app.stats()
  const hist = new Histogram()
  const instance = autocannon({
    url: `${app.origin}${spec.path}`,
    connections: spec.connections,
    pipelining: 1,
    duration: spec.durationS,
    timeout: spec.timeoutS ?? 10,
    ...(spec.headers ? { headers: spec.headers } : {}),
    ...(spec.requests
      ? {
          requests: spec.requests.map((r) => ({
            method: "GET",
            path: r.path,
            ...(r.headers ? { headers: r.headers } : {}),
          })),
        }
      : {}),
    ...(spec.overallRate ? { overallRate: spec.overallRate } : {}),
    ...(spec.verifyBody ? { verifyBody: spec.verifyBody } : {}),
  })
  instance.on("response", (_client: unknown, _status: number, _bytes: number, ms: number) => hist.record(ms))
  const result = await instance
  const server = await app.stats()
  const statuses: Record<string, number> = {}
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = count
  const answered = Math.max(1, server.requests)
  return {
    requests: result.requests.total,
    durationS: result.duration,
    opsPerS: result.requests.total / result.duration,
    p50: hist.percentile(50),
    p99: hist.percentile(99),
    p999: hist.percentile(99.9),
    max: hist.max,
    errors: result.errors + result.non2xx + result.mismatches,
    non2xx: result.non2xx,
    mismatches: result.mismatches,
    timeouts: result.timeouts,
    statuses,
    server,
    serverStart,
    cpuUsPerOp: (server.cpuUserUs + server.cpuSystemUs) / answered,
  }
}
