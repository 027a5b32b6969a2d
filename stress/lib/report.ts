// Stress harness: what each run returns (tables, must-hold checks, notes), the shared run context, and text tables.
import os from "node:os"

/**
 * One must-hold condition. `pass: null` marks a figure that is only reported, or a part that is pending. A failed
 * check with `known` set is a known bug in src/ (the text says which): printed as KNOWN BUG, it does not fail the run,
 * like an it.fails test; it fails again as soon as `known` is removed.
 */
export interface Check {
  name: string
  pass: boolean | null
  value: string
  known?: string
}

export interface Table {
  title?: string
  head: string[]
  rows: (string | number)[][]
}

export interface RunResult {
  id: string
  title: string
  tables: Table[]
  checks: Check[]
  notes: string[]
  seconds?: number
}

export interface RunContext {
  /** CI-sized run (npm run stress -- --short, or STRESS_SHORT=1). */
  short: boolean
  /** Seconds per R1 load phase. */
  r1Seconds: number
  /** R4 soak length in seconds. */
  soakSeconds: number
  /** Progress lines on stderr, so stdout keeps only the tables. */
  log(message: string): void
}

export function check(name: string, pass: boolean | null, value: string | number, known?: string): Check {
  return { name, pass, value: String(value), ...(known !== undefined && pass === false ? { known } : {}) }
}

/** Whether a check fails the run: failed, and not a known bug. */
export const failing = (c: Check): boolean => c.pass === false && c.known === undefined

function verdict(c: Check): string {
  if (c.pass === null) return "reported"
  if (c.pass) return "ok"
  return c.known !== undefined ? `KNOWN BUG (${c.known})` : "FAIL"
}

export const fmt = {
  ms: (v: number): string => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)),
  int: (v: number): string => Math.round(v).toLocaleString("en-US"),
  mb: (bytes: number): string => (bytes / 1024 / 1024).toFixed(1),
  pct: (v: number): string => `${(v * 100).toFixed(v < 0.01 && v > 0 ? 2 : 1)} %`,
  ratio: (v: number): string => v.toFixed(2),
}

export function renderTable(t: Table): string {
  const rows = [t.head, ...t.rows.map((r) => r.map(String))]
  const widths = t.head.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)))
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`
  const out = [
    line(rows[0] as string[]),
    `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`,
    ...rows.slice(1).map(line),
  ]
  return (t.title ? `${t.title}:\n\n` : "") + out.join("\n")
}

export function renderResult(r: RunResult): string {
  const parts = [`## ${r.id} ${r.title}${r.seconds !== undefined ? ` (${r.seconds.toFixed(0)} s)` : ""}`]
  for (const t of r.tables) parts.push(renderTable(t))
  parts.push(
    renderTable({ head: ["must hold", "value", "result"], rows: r.checks.map((c) => [c.name, c.value, verdict(c)]) }),
  )
  for (const n of r.notes) parts.push(`note: ${n}`)
  return parts.join("\n\n")
}

/** The machine line every report starts with: cores, CPU model, memory, Node, load average. */
export function machineLine(): string {
  const cpus = os.cpus()
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")
  return `${cpus.length} cores (${cpus[0]?.model.trim() ?? "unknown CPU"}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${load}`
}

export const loadAvg = (): string => os.loadavg()[0]?.toFixed(2) ?? "?"
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
