/// <reference path="../stress/lib/autocannon.d.ts" />
// Over real HTTP: GET /auth/session with a session cookie through Gatehouse's node:http and Express front
// doors and through @auth/core / @auth/express, each beside a trivial handler of the same server kind; and the
// server-side session read (getSession) inside an Express route, Gatehouse against @auth/express.
//
//   npm run bench -- --http-only        # this part only (bench/run.ts runs it after the in-process part)
//   npx tsx bench/http.ts --rounds=5 --duration=3
//
// Method. The servers run in one child process (bench/http-server.ts), autocannon in this one: on a 2-core machine
// each gets a core. Throughput cases: 50 connections, a discarded warm-up, then `duration` seconds; in each round
// the three handlers of a group run back to back (order alternating by round), and each library's throughput is
// taken as a fraction of the trivial handler's in the same round; the report gives the median over rounds.
// getSession cases: one connection (one request in flight, so the time inside the route is the call's own cost),
// the route times the call with hrtime; the ratio is @auth/express µs ÷ Gatehouse µs, median over rounds.
import { spawn } from "node:child_process"
import os from "node:os"
import { createInterface } from "node:readline"
import autocannon from "autocannon"
import { encode } from "../src/jwt/index.js"
import { benchOptionsOrExit } from "./options.js"

const args = benchOptionsOrExit(process.argv.slice(2))
const ROUNDS = Number(args.get("rounds") ?? 3)
const DURATION_S = Number(args.get("duration") ?? (args.has("quick") ? 1 : 3))
const WARMUP_S = args.has("quick") ? 1 : 2
const CONNECTIONS = 50
const SECRET = "x".repeat(32)
const COOKIE_NAME = "authjs.session-token"

const token = await encode({
  token: { name: "Bench User", email: "bench@example.com", sub: "user-1" },
  secret: SECRET,
  salt: COOKIE_NAME,
})
const cookie = `${COOKIE_NAME}=${token}`

const child = spawn(process.execPath, ["--import", "tsx", new URL("./http-server.ts", import.meta.url).pathname], {
  stdio: ["ignore", "pipe", "inherit"],
})
process.on("exit", () => child.kill())
const firstLine = await new Promise<string>((resolve, reject) => {
  createInterface({ input: child.stdout! }).once("line", resolve)
  child.once("exit", (code) => reject(new Error(`bench server exited with ${code}`)))
})
const ports = JSON.parse(firstLine) as Record<string, number | null>
const url = (port: number | null, path: string) => `http://127.0.0.1:${port}${path}`

type Case = { id: string; what: string; url: string }
const groups: { name: string; cases: Case[] }[] = [
  {
    name: "node:http",
    cases: [
      { id: "N0", what: "trivial node:http handler (fixed JSON)", url: url(ports.trivialNode!, "/auth/session") },
      {
        id: "N0b",
        what: "trivial handler behind a web Request/Response bridge (the reference of Auth.js's 16 %)",
        url: url(ports.trivialBridged!, "/auth/session"),
      },
      { id: "N1", what: "Gatehouse createHandler", url: url(ports.gatehouseNode!, "/auth/session") },
      {
        id: "N2",
        what: "@auth/core Auth() through a web Request/Response bridge",
        url: url(ports.authjsNode!, "/auth/session"),
      },
    ],
  },
  {
    name: "Express",
    cases: [
      { id: "E0", what: "trivial Express route (res.json)", url: url(ports.trivialExpress!, "/auth/session") },
      ...(ports.gatehouseExpress
        ? [{ id: "E1", what: "Gatehouse ExpressAuth", url: url(ports.gatehouseExpress, "/auth/session") }]
        : []),
      { id: "E2", what: "@auth/express ExpressAuth", url: url(ports.authjsExpress!, "/auth/session") },
    ],
  },
]
const sessionRoutes = [
  ...(ports.gatehouseExpress ? [{ id: "S1", lib: "gatehouse", url: url(ports.routes!, "/me-gatehouse") }] : []),
  { id: "S2", lib: "authjs", url: url(ports.routes!, "/me-authjs") },
]

// Every handler must answer the signed-in session before anything is measured.
for (const c of [...groups.flatMap((g) => g.cases), ...sessionRoutes]) {
  const res = await fetch(c.url, { headers: { cookie } })
  const body = await res.text()
  if (res.status !== 200 || !body.includes("bench@example.com"))
    throw new Error(`${c.id} ${c.url}: ${res.status} ${body.slice(0, 200)}`)
}

async function load(
  target: string,
  connections: number,
  seconds: number,
): Promise<{ rps: number; p50: number; p99: number; bad: number }> {
  const result = await autocannon({ url: target, connections, duration: seconds, headers: { cookie } })
  return {
    rps: result.requests.average,
    p50: result.latency.p50 ?? NaN,
    p99: result.latency.p99 ?? NaN,
    bad: result.non2xx + result.errors + result.timeouts,
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}
const fmt = (n: number, d = 0) => n.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d })

const rps = new Map<string, number[]>()
const share = new Map<string, number[]>()
const bridged = new Map<string, number[]>()
const inRoute = new Map<string, number[]>()
const routeRatio: number[] = []
const loadAtStart = os.loadavg()[0]!
console.error(
  `load average at start: ${loadAtStart.toFixed(2)}${loadAtStart > 0.5 ? " (another process shares the cores; ratios will be low)" : ""}`,
)
for (let round = 0; round < ROUNDS; round++) {
  for (const group of groups) {
    const order = round % 2 === 0 ? group.cases : [...group.cases].reverse()
    const got = new Map<string, number>()
    for (const c of order) {
      await load(c.url, CONNECTIONS, WARMUP_S)
      const r = await load(c.url, CONNECTIONS, DURATION_S)
      if (r.bad) throw new Error(`${c.id}: ${r.bad} non-2xx answers or errors`)
      got.set(c.id, r.rps)
      rps.set(c.id, [...(rps.get(c.id) ?? []), r.rps])
      console.error(
        `[round ${round + 1}/${ROUNDS}] ${c.id} ${fmt(r.rps).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  ${c.what}`,
      )
    }
    const trivial = got.get(group.cases[0]!.id)!
    for (const c of group.cases.slice(1)) share.set(c.id, [...(share.get(c.id) ?? []), got.get(c.id)! / trivial])
    if (got.has("N0b"))
      for (const id of ["N1", "N2"]) bridged.set(id, [...(bridged.get(id) ?? []), got.get(id)! / got.get("N0b")!])
  }
  const routeOrder = round % 2 === 0 ? sessionRoutes : [...sessionRoutes].reverse()
  const us = new Map<string, number>()
  for (const r of routeOrder) {
    await load(r.url, 1, WARMUP_S)
    await fetch(url(ports.routes!, "/__stats"))
    await load(r.url, 1, DURATION_S)
    const stats = (await (await fetch(url(ports.routes!, "/__stats"))).json()) as Record<string, { us: number }>
    us.set(r.id, stats[r.lib]!.us)
    inRoute.set(r.id, [...(inRoute.get(r.id) ?? []), stats[r.lib]!.us])
    console.error(
      `[round ${round + 1}/${ROUNDS}] ${r.id} getSession ${fmt(stats[r.lib]!.us, 1)} µs per call (${r.lib})`,
    )
  }
  if (us.has("S1")) routeRatio.push(us.get("S2")! / us.get("S1")!)
}

const lines = [
  `HTTP cases: ${ROUNDS} rounds, ${CONNECTIONS} connections, ${DURATION_S} s each after a ${WARMUP_S} s warm-up; load average at start ${loadAtStart.toFixed(2)}, at end ${os.loadavg()[0]!.toFixed(2)}.`,
  "",
  "| id | GET /auth/session with a session cookie | req/s (median) | share of the trivial handler N0 / E0 (median of rounds) | share of the bridged trivial handler N0b |",
  "|---|---|---:|---:|---:|",
  ...groups.flatMap((g) =>
    g.cases.map(
      (c) =>
        `| ${c.id} | ${c.what} | ${fmt(median(rps.get(c.id)!))} | ${share.has(c.id) ? `${fmt(100 * median(share.get(c.id)!), 0)} %` : "reference"} | ${bridged.has(c.id) ? `${fmt(100 * median(bridged.get(c.id)!), 0)} %` : c.id === "N0b" ? "reference" : ""} |`,
    ),
  ),
  "",
  "| id | getSession(req, config) inside an Express route, one request in flight | µs per call (median) |",
  "|---|---|---:|",
  ...sessionRoutes.map(
    (r) =>
      `| ${r.id} | ${r.lib === "gatehouse" ? "Gatehouse gatehouse/express" : "@auth/express"} | ${fmt(median(inRoute.get(r.id)!), 1)} |`,
  ),
  "",
  routeRatio.length
    ? `Server-side session read: Gatehouse is ${fmt(median(routeRatio), 1)}x @auth/express (median of per-round ratios: ${routeRatio.map((r) => fmt(r, 1)).join(" / ")}).`
    : "gatehouse/express is not built yet: S1 and E1 skipped.",
  `Targets (docs/performance.md): node share >= 75 %, Express share >= 75 %, getSession >= 50x.`,
]
console.log(lines.join("\n"))
child.kill()
