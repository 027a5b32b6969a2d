/// <reference path="../../stress/lib/autocannon.d.ts" />
// Over real HTTP (`npm run bench -- --peers --peers-part=http`): each library's Express integration, and the node:http
// ones where a library has one, answer GET session with a signed-in cookie, under autocannon (50 connections, a discarded warm-up, then the timed window), beside a
// trivial route of the same server kind in the same round. Servers in a child process (bench/peers/http-server.ts), autocannon here:
// one core each on a 2-core machine. Rounds interleaved (order reversed every other round); each library's req/s is
// taken as a share of the trivial route's in the same round; medians over rounds.
import { spawn } from "node:child_process"
import os from "node:os"
import { createInterface } from "node:readline"
import autocannon from "autocannon"
import { benchOptionsOrExit } from "../options.js"

const args = benchOptionsOrExit(process.argv.slice(2))
const ROUNDS = Number(args.get("rounds") ?? 3)
const DURATION_S = args.has("quick") ? 2 : 3
const WARMUP_S = args.has("quick") ? 1 : 2
const CONNECTIONS = 50

const child = spawn(process.execPath, ["--import", "tsx", new URL("./http-server.ts", import.meta.url).pathname], {
  stdio: ["ignore", "pipe", "inherit"],
})
process.on("exit", () => child.kill())
const line = await new Promise<string>((resolve, reject) => {
  createInterface({ input: child.stdout! }).once("line", resolve)
  child.once("exit", (code) => reject(new Error(`peers http server exited with ${code}`)))
})
const { ports, cookies } = JSON.parse(line) as { ports: Record<string, number>; cookies: Record<string, string> }

const groups = [
  [
    { id: "E0", key: "trivial", what: "trivial Express route (res.json), the reference", path: "/auth/session" },
    { id: "EG", key: "gatehouse", what: "Gatehouse ExpressAuth, JWT (default)", path: "/auth/session" },
    { id: "EA", key: "authjs", what: "@auth/express 0.12.3 (@auth/core 0.41.3), JWT (default)", path: "/auth/session" },
    { id: "EB", key: "betterAuth", what: "better-auth toNodeHandler in Express, default (database read, memory adapter)", path: "/api/auth/get-session" },
    { id: "EBc", key: "betterAuthCached", what: "better-auth toNodeHandler in Express, cookieCache on (memory adapter)", path: "/api/auth/get-session" },
  ],
  [
    { id: "N0", key: "trivialNode", what: "trivial node:http handler (writeHead + end), the reference", path: "/auth/session" },
    { id: "NG", key: "gatehouseNode", what: "Gatehouse createHandler (gatehouse/node), JWT (default)", path: "/auth/session" },
    { id: "NB", key: "betterAuthNode", what: "better-auth toNodeHandler on node:http, default (memory adapter)", path: "/api/auth/get-session" },
  ],
].map((g) => g.map((c) => ({ ...c, url: `http://127.0.0.1:${ports[c.key]}${c.path}`, cookie: cookies[c.key]! })))
const cases = groups.flat()

for (const c of cases) {
  const res = await fetch(c.url, { headers: { cookie: c.cookie } })
  const body = await res.text()
  if (res.status !== 200 || !body.includes("bench@example.com")) throw new Error(`${c.id}: ${res.status} ${body.slice(0, 200)}`)
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}
const fmt = (n: number, d = 0) => n.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d })
const rps = new Map<string, number[]>(),
  p99 = new Map<string, number[]>(),
  share = new Map<string, number[]>()
const loadAtStart = os.loadavg()[0]!
for (let round = 0; round < ROUNDS; round++) {
  for (const group of groups) {
  const got = new Map<string, number>()
  for (const c of round % 2 === 0 ? group : [...group].reverse()) {
    await autocannon({ url: c.url, connections: CONNECTIONS, duration: WARMUP_S, headers: { cookie: c.cookie } })
    const r = await autocannon({ url: c.url, connections: CONNECTIONS, duration: DURATION_S, headers: { cookie: c.cookie } })
    const bad = r.non2xx + r.errors + r.timeouts
    if (bad) throw new Error(`${c.id}: ${bad} non-2xx answers or errors`)
    // Answers completed in the window ÷ its length (autocannon's requests.average is a mean of whole 1-second buckets,
    // 0 when a loaded machine completes none in a bucket).
    const rate = r.requests.total / DURATION_S
    if (r.requests.total < 100) console.error(`${c.id}: only ${r.requests.total} answers in the window; its rate is not reliable`)
    got.set(c.id, rate)
    rps.set(c.id, [...(rps.get(c.id) ?? []), rate])
    p99.set(c.id, [...(p99.get(c.id) ?? []), r.latency.p99 ?? NaN])
    console.error(`[round ${round + 1}/${ROUNDS}] ${c.id.padEnd(3)} ${fmt(rate).padStart(7)} req/s  p99 ${r.latency.p99} ms  ${c.what}`)
  }
  for (const c of group) share.set(c.id, [...(share.get(c.id) ?? []), got.get(c.id)! / got.get(group[0]!.id)!])
  }
}
console.log(
  [
    `Express under autocannon: ${ROUNDS} rounds, ${CONNECTIONS} connections, ${DURATION_S} s after a ${WARMUP_S} s warm-up; load average ${loadAtStart.toFixed(2)} at start, ${os.loadavg()[0]!.toFixed(2)} at end.`,
    "",
    "| id | GET session, signed in | req/s (median) | p99 ms (median) | share of E0 / N0 (median of rounds) | req/s per round |",
    "|---|---|---:|---:|---:|---|",
    ...cases.map(
      (c) =>
        `| ${c.id} | ${c.what} | ${fmt(median(rps.get(c.id)!))} | ${fmt(median(p99.get(c.id)!))} | ${c.id === "E0" || c.id === "N0" ? "reference" : `${fmt(100 * median(share.get(c.id)!))} %`} | ${rps.get(c.id)!.map((x) => fmt(x)).join(" / ")} |`,
    ),
  ].join("\n"),
)
child.kill()
