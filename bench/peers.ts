// `npm run bench -- --peers`: Gatehouse beside @auth/core 0.41.3 and better-auth 1.x. better-auth cannot join the root's
// devDependencies (its optional peer chain wants Babel 8 where the Solid and Qwik tooling hold Babel 7), so it lives in
// bench/peers/package.json with its own lockfile, installed here on first use (`npm ci --prefix bench/peers`); CI and
// the tests never install it. Each part runs in a process of its own:
//   in-process  bench/peers/run.ts   the same requests through each library's handler, interleaved rounds
//   cold        bench/peers/cold.ts  import + first GET session in a fresh `node`, median of 20 starts per library
//   http        bench/peers/http.ts  each library's Express integration under autocannon beside a trivial route
//   callgrind   bench/peers/callgrind.ts  instructions per request under valgrind (only with --peers-part=callgrind)
// Method and results: docs/performance.md, "Against @auth/core and better-auth".
import { spawn, spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"

const PEERS_DIR = fileURLToPath(new URL("./peers/", import.meta.url))
const PARTS = ["in-process", "cold", "http"] as const

/** Installs bench/peers from its lockfile when its node_modules is missing; false when npm failed. */
function installPeers(): boolean {
  if (existsSync(`${PEERS_DIR}node_modules/better-auth/package.json`)) return true
  console.error("bench --peers: installing bench/peers (npm ci --prefix bench/peers) on first use")
  const npm = spawnSync("npm", ["ci", "--prefix", PEERS_DIR, "--ignore-scripts", "--no-audit", "--no-fund"], {
    stdio: "inherit",
  })
  return npm.status === 0
}

/** Runs the parts --peers-part names (all but callgrind by default); the exit code of the first that failed, or 0. */
export async function runPeers(args: Map<string, string>): Promise<number> {
  if (!installPeers()) {
    console.error("bench --peers: `npm ci --prefix bench/peers` failed; nothing measured")
    return 1
  }
  const forwarded = [...args]
    .filter(([name]) => ["quick", "rounds", "duration", "warmup"].includes(name))
    .map(([name, value]) => (value === "true" ? `--${name}` : `--${name}=${value}`))
  const part = args.get("peers-part")
  for (const name of part ? [part] : PARTS) {
    const file = `${PEERS_DIR}${name === "in-process" ? "run" : name}.ts`
    const code = await new Promise<number | null>((resolve) =>
      spawn(process.execPath, ["--import", "tsx", file, ...forwarded], { stdio: "inherit" }).on("exit", resolve),
    )
    if (code !== 0) {
      console.error(`bench --peers: ${name} exited with ${code}`)
      return code ?? 1
    }
  }
  return 0
}
