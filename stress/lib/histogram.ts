// Stress harness: a log-bucket latency histogram in milliseconds (0.5 % resolution from 1 µs), cheap to record
// into at tens of thousands of values a second and small enough for a 30-minute soak.

const MIN_MS = 0.001
const GROWTH = Math.log(1.005)
const BUCKETS = 5_000 // 1 µs · 1.005^5000 ≈ 72 s; longer values land in the last bucket

export class Histogram {
  private counts = new Float64Array(BUCKETS)
  count = 0
  max = 0
  min = Number.POSITIVE_INFINITY
  private sum = 0

  record(ms: number): void {
    const v = Math.max(ms, MIN_MS)
    const i = Math.min(BUCKETS - 1, Math.floor(Math.log(v / MIN_MS) / GROWTH))
    this.counts[i]! += 1
    this.count++
    this.sum += ms
    if (ms > this.max) this.max = ms
    if (ms < this.min) this.min = ms
  }

  /** The value below which `p` percent of the records fall (the bucket's upper edge, capped at the max seen). */
  percentile(p: number): number {
    if (this.count === 0) return 0
    const rank = Math.ceil((p / 100) * this.count)
    let seen = 0
    for (let i = 0; i < BUCKETS; i++) {
      seen += this.counts[i]!
      if (seen >= rank) return Math.min(this.max, MIN_MS * Math.exp((i + 1) * GROWTH))
    }
    return this.max
  }

  mean(): number {
    return this.count === 0 ? 0 : this.sum / this.count
  }

  reset(): void {
    this.counts.fill(0)
    this.count = 0
    this.max = 0
    this.min = Number.POSITIVE_INFINITY
    this.sum = 0
  }
}
