// Stress harness: the part of autocannon's API the runs use (the package ships no types).
declare module "autocannon" {
  import type { EventEmitter } from "node:events"

  interface RequestSpec {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string
  }

  interface Options {
    url: string
    connections?: number
    pipelining?: number
    duration?: number
    amount?: number
    overallRate?: number
    timeout?: number
    headers?: Record<string, string>
    method?: string
    body?: string
    requests?: RequestSpec[]
    verifyBody?: (body: string) => boolean
    excludeErrorStats?: boolean
  }

  interface Result {
    requests: { total: number; average: number }
    latency: Record<string, number>
    errors: number
    timeouts: number
    mismatches: number
    non2xx: number
    resets: number
    duration: number
    statusCodeStats: Record<string, { count: number }>
  }

  interface Instance extends EventEmitter, PromiseLike<Result> {
    stop(): void
  }

  function autocannon(options: Options): Instance
  export default autocannon
}
