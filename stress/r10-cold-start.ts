// R10 cold start: a fresh process per sample, timed from spawn to listening, then the first requests (the first
// session read pays for the key derivation, the first CSRF token and sign-in for theirs). Other runtimes: which exist.
import { spawn, spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { encode } from "../src/jwt/index.js"
import { SESSION_COOKIE, csrf, signIn } from "./lib/flows.js"
import { Client, Jar } from "./lib/http.js"
import { type RunContext, type RunResult, check, fmt } from "./lib/report.js"

const SECRET = "stress-cold-start-secret-at-least-32-chars"
const APP = fileURLToPath(new URL("./lib/cold-app.mjs", import.meta.url))
const ROOT = new URL("../", import.meta.url)

interface Sample {
  spawnToReadyMs: number
  importMs: number
  firstSessionMs: number
  secondSessionMs: number
  firstCsrfMs: number
  firstSignInMs: number
  ok: boolean
}

async function sample(kind: "dist" | "src", cookie: string): Promise<Sample> {
  const started = performance.now()
  const child = spawn(process.execPath, [...(kind === "src" ? ["--import", "tsx"] : []), APP], {
    env: { ...process.env, GATEHOUSE_BASE: new URL(`${kind}/`, ROOT).href, COLD_SECRET: SECRET },
    stdio: ["pipe", "pipe", "inherit"],
  })
  try {
    const line = await new Promise<string>((resolve, reject) => {
      let buf = ""
      const timer = setTimeout(() => reject(new Error("cold app did not start within 30 s")), 30_000)
      child.stdout.on("data", (c: Buffer) => {
        buf += c.toString("utf8")
        const i = buf.indexOf("\n")
        if (i >= 0) {
          clearTimeout(timer)
          resolve(buf.slice(0, i))
        }
      })
      child.once("exit", (code) => reject(new Error(`cold app exited with ${code}`)))
    })
    const ready = performance.now()
    const info = JSON.parse(line) as { port: number; importedMs: number }
    const client = new Client(`http://127.0.0.1:${info.port}`, 1)
    const jar = new Jar()
    jar.cookies.set(SESSION_COOKIE, cookie)
    const first = await client.send("GET", "/auth/session", { jar })
    const second = await client.send("GET", "/auth/session", { jar })
    const t = performance.now()
    const fresh = new Jar()
    await csrf(client, fresh)
    const csrfMs = performance.now() - t
    const t2 = performance.now()
    const si = await signIn(client, new Jar(), "user-1")
    const signInMs = performance.now() - t2
    client.close()
    return {
      spawnToReadyMs: ready - started,
      importMs: info.importedMs,
      firstSessionMs: first.ms,
      secondSessionMs: second.ms,
      firstCsrfMs: csrfMs,
      firstSignInMs: signInMs,
      ok: first.status === 200 && first.body.includes("cold@stress.test") && si.status === 302,
    }
  } finally {
    child.stdin.end()
    child.kill()
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0
const installed = (cmd: string): boolean => spawnSync("sh", ["-c", `command -v ${cmd}`]).status === 0

export async function runR10(ctx: RunContext): Promise<RunResult> {
  const cookie = await encode({
    token: { name: "Cold", email: "cold@stress.test", sub: "cold" },
    secret: SECRET,
    salt: SESSION_COOKIE,
  })
  const reps = ctx.short ? 3 : 7
  const rows: (string | number)[][] = []
  const checks = []
  const kinds: ("dist" | "src")[] = existsSync(fileURLToPath(new URL("dist/integrations/node.js", ROOT)))
    ? ["dist", "src"]
    : ["src"]
  for (const kind of kinds) {
    const samples: Sample[] = []
    for (let i = 0; i < reps; i++) samples.push(await sample(kind, cookie))
    const m = (k: keyof Omit<Sample, "ok">) => fmt.ms(median(samples.map((s) => s[k])))
    rows.push([
      kind === "dist" ? "node, dist/ (what an app runs)" : "node --import tsx, src/",
      reps,
      m("spawnToReadyMs"),
      m("importMs"),
      m("firstSessionMs"),
      m("secondSessionMs"),
      m("firstCsrfMs"),
      m("firstSignInMs"),
    ])
    checks.push(
      check(
        `R10 ${kind}: first requests answer correctly in every fresh process`,
        samples.every((s) => s.ok),
        `${samples.filter((s) => s.ok).length} of ${reps}`,
      ),
    )
  }
  const runtimes = [
    [`Node ${process.version}`, "measured above"],
    ["Node 22", installed("node22") ? "installed, not wired" : "not installed"],
    ["Bun", installed("bun") ? "installed, not wired" : "not installed"],
    ["Deno", installed("deno") ? "installed, not wired" : "not installed"],
    ["workerd", installed("workerd") ? "installed, not wired" : "not installed"],
  ]
  checks.push(
    check(
      "R10 section-1 suite on other runtimes",
      null,
      runtimes
        .slice(1)
        .map(([r, s]) => `${r}: ${s}`)
        .join("; "),
    ),
  )
  return {
    id: "R10",
    title: "cold start and runtimes",
    tables: [
      {
        head: [
          "process",
          "samples",
          "spawn → listening ms",
          "import done ms (from process start)",
          "1st GET /session ms",
          "2nd GET /session ms",
          "1st GET /csrf ms",
          "1st sign-in ms",
        ],
        rows,
      },
      { head: ["runtime", "status"], rows: runtimes },
    ],
    checks,
    notes: [
      `medians of ${reps} fresh processes; the first session read includes the HKDF key derivation and cipher set-up for the secret.${kinds.includes("dist") ? "" : " dist/ is not built (npm run build), so only src/ under tsx was timed."}`,
      "dist/ is what the last npm run build produced (CI builds before it runs this).",
    ],
  }
}
