// dist/ for the tests that use the package as npm installs it (the Next.js apps): built on first need in a run, once
// across vitest's workers, and only when it is missing or older than a source file; a fresh clone needs no step first.
import { spawnSync } from "node:child_process"
import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = fileURLToPath(new URL("../../", import.meta.url))
const MARKER = join(ROOT, "dist", "integrations", "next.js")
const LOCK = join(ROOT, "node_modules", ".cache", "gatehouse-dist.lock")
/** A lock older than this was left by a run that died mid-build. */
const STALE_LOCK_MS = 10 * 60_000
const WAIT_LIMIT_MS = 10 * 60_000

function newestMtime(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path))
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts"))
      newest = Math.max(newest, statSync(path).mtimeMs)
  }
  return newest
}

/** dist/ exists and was built after the last change to src/, tsconfig.build.json and package.json (its exports). */
export function distIsCurrent(): boolean {
  let built: number
  try {
    built = statSync(MARKER).mtimeMs
  } catch {
    return false
  }
  const inputs = Math.max(
    newestMtime(join(ROOT, "src")),
    statSync(join(ROOT, "tsconfig.build.json")).mtimeMs,
    statSync(join(ROOT, "package.json")).mtimeMs,
  )
  return built > inputs
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

function takeLock(): boolean {
  mkdirSync(join(LOCK, ".."), { recursive: true })
  try {
    mkdirSync(LOCK)
    return true
  } catch {
    try {
      if (Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true })
    } catch {
      // the holder released it meanwhile
    }
    return false
  }
}

/**
 * Builds dist/ (`npm run build`) unless it is current; concurrent callers wait for the one that builds. dist/ is only
 * looked at under the lock: a worker building it writes the marker before the build is done (tsc emits file by file),
 * so a check without the lock could take a half-written dist/ for a current one.
 */
export function ensureDist(): void {
  const deadline = Date.now() + WAIT_LIMIT_MS
  for (;;) {
    if (takeLock()) {
      try {
        if (distIsCurrent()) return
        const started = Date.now()
        const build = spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, encoding: "utf8", stdio: "pipe" })
        if (build.status !== 0)
          throw new Error(`npm run build failed (${build.status}):\n${build.stdout}${build.stderr}`)
        console.log(`built dist/ for the package tests in ${((Date.now() - started) / 1000).toFixed(1)} s`)
        return
      } finally {
        rmSync(LOCK, { recursive: true, force: true })
      }
    }
    if (Date.now() > deadline)
      throw new Error(
        `dist/ is still being built by another test worker after ${WAIT_LIMIT_MS / 1000} s (lock ${LOCK})`,
      )
    sleep(500)
  }
}
