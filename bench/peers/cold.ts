// Cold start (`npm run bench -- --peers --peers-part=cold`): a fresh `node bench/peers/cold-child.mjs <library>` per
// start imports the library, configures it and answers its first GET session; 20 starts per case (--quick: 5),
// interleaved (one start of each case in turn, the order reversed every other pass). Reported: the child's own clock at
// the answer (ms since its process started, Node's bootstrap included) and the parent's spawn-to-exit wall time.
// Gatehouse comes from the built dist/ (built here through test/support/dist.ts when src/ is newer), as npm installs it.
import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import os from "node:os"
import { fileURLToPath } from "node:url"
import { encode } from "../../src/jwt/index.js"
import { ensureDist } from "../../test/support/dist.js"
import { benchOptionsOrExit } from "../options.js"
import { SECRET, USER } from "./libs.js"

const args = benchOptionsOrExit(process.argv.slice(2))
const STARTS = args.has("quick") ? 5 : 20
const CHILD = fileURLToPath(new URL("./cold-child.mjs", import.meta.url))
try {
  ensureDist()
} catch (error) {
  // A tree mid-edit may not build; dist/ as last built is still the package as npm would install it then.
  if (!existsSync(new URL("../../dist/index.js", import.meta.url))) throw error
  console.error(`cold start: dist/ could not be rebuilt, measuring it as last built (${(error as Error).message.split("\n")[0]})`)
}

const token = await encode({
  token: { name: USER.name, email: USER.email, sub: "user-1" },
  secret: SECRET,
  salt: "authjs.session-token",
})
const cookie = `authjs.session-token=${token}`
const cases = [
  { id: "K0", lib: "node", what: "no library: a fixed Response (Node's own start)", cookie: undefined },
  { id: "KG", lib: "gatehouse", what: "Gatehouse (dist/), GET /auth/session with a JWT cookie", cookie },
  { id: "KA", lib: "authjs", what: "@auth/core 0.41.3, GET /auth/session with a JWT cookie", cookie },
  { id: "KG0", lib: "gatehouse", what: "Gatehouse (dist/), GET /auth/session, no cookie", cookie: undefined },
  { id: "KA0", lib: "authjs", what: "@auth/core 0.41.3, GET /auth/session, no cookie", cookie: undefined },
  { id: "KB0", lib: "better-auth", what: "better-auth (memory adapter), GET /api/auth/get-session, no cookie", cookie: undefined },
]

const loadAtStart = os.loadavg()[0]!
const got = new Map<string, { answered: number[]; imported: number[]; wall: number[] }>()
for (let pass = 0; pass < STARTS; pass++) {
  for (const c of pass % 2 === 0 ? cases : [...cases].reverse()) {
    const t0 = performance.now()
    const child = spawnSync(process.execPath, [CHILD, c.lib, ...(c.cookie ? [c.cookie] : [])], { encoding: "utf8" })
    const wall = performance.now() - t0
    if (child.status !== 0) throw new Error(`${c.id}: exit ${child.status}: ${child.stderr}`)
    const { importedMs, answeredMs } = JSON.parse(child.stdout) as { importedMs: number; answeredMs: number }
    const r = got.get(c.id) ?? { answered: [], imported: [], wall: [] }
    r.answered.push(answeredMs)
    r.imported.push(importedMs)
    r.wall.push(wall)
    got.set(c.id, r)
  }
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}
const ms = (x: number) => x.toFixed(1)
const m = (id: string, k: "answered" | "imported" | "wall") => median(got.get(id)![k])
const lines = [
  `Cold start: ${STARTS} starts per case, interleaved; load average ${loadAtStart.toFixed(2)} at start, ${os.loadavg()[0]!.toFixed(2)} at end; node ${process.version}.`,
  "",
  "| id | case | imported (ms since start) | first answer (ms since start) | spawn to exit (ms) | first answer, min / max |",
  "|---|---|---:|---:|---:|---|",
  ...cases.map((c) => {
    const a = got.get(c.id)!.answered
    return `| ${c.id} | ${c.what} | ${ms(m(c.id, "imported"))} | ${ms(m(c.id, "answered"))} | ${ms(m(c.id, "wall"))} | ${ms(Math.min(...a))} / ${ms(Math.max(...a))} |`
  }),
  "",
  `Target: Gatehouse's import + first /auth/session no longer than @auth/core's (median of ${STARTS}): ` +
    `${ms(m("KG", "answered"))} ms against ${ms(m("KA", "answered"))} ms with a cookie, ${ms(m("KG0", "answered"))} against ${ms(m("KA0", "answered"))} without — ` +
    `${m("KG", "answered") <= m("KA", "answered") && m("KG0", "answered") <= m("KA0", "answered") ? "**met**" : "**NOT met**"}.`,
]
console.log(lines.join("\n"))
