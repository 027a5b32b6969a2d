// Where the demo keeps its state: PGlite in a local data folder (with the AUTH_SECRET beside it), or memory only.
import { randomBytes } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join, relative, resolve } from "node:path"
import type { Adapter } from "../src/adapters/index.js"
import { MemoryAdapter } from "../src/adapters/memory.js"
import { migrate, PostgresAdapter } from "../src/adapters/postgres.js"

export interface DemoStorage {
  adapter: Adapter
  /** The session secret: kept in the data folder, random per run in memory mode, AUTH_SECRET when that is set. */
  secret: string
  /** For the start-up output: "memory (nothing written to disk)" or the database folder. */
  description: string
  close(): Promise<void>
}

/** The data folder: DEMO_DATA_DIR, else `.demo-data/` in the current directory. */
function dataDirectory(): string {
  return resolve(process.env.DEMO_DATA_DIR ?? ".demo-data")
}

/** True when a process with this pid is alive (signal 0 only checks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/** One demo per data folder: PGlite is a single-process database, and two writers would corrupt it. */
function lockFolder(dir: string): () => void {
  const lock = join(dir, "demo.pid")
  const holder = existsSync(lock) ? Number(readFileSync(lock, "utf8")) : NaN
  if (Number.isInteger(holder) && holder !== process.pid && alive(holder)) {
    throw new Error(
      `Another demo (pid ${holder}) is using ${dir}. Stop it first, or run this one with --memory or another DEMO_DATA_DIR.`,
    )
  }
  writeFileSync(lock, String(process.pid))
  return () => rmSync(lock, { force: true })
}

/** The secret in `<dir>/auth-secret`, made on the first start (readable by this user only). Never printed. */
function persistentSecret(dir: string): string {
  const file = join(dir, "auth-secret")
  if (existsSync(file)) {
    const kept = readFileSync(file, "utf8").trim()
    if (kept.length >= 32) return kept
  }
  const secret = randomBytes(32).toString("base64url")
  writeFileSync(file, `${secret}\n`, { mode: 0o600 })
  return secret
}

/** Opens the storage; `onSlowStart` is called before a first start's database creation (a few seconds). */
export async function openStorage(options: {
  memory: boolean
  onSlowStart?: (dir: string) => void
}): Promise<DemoStorage> {
  if (options.memory) {
    return {
      adapter: MemoryAdapter(),
      secret: process.env.AUTH_SECRET ?? randomBytes(32).toString("base64url"),
      description: "memory (nothing is written to disk; users and sessions end with the demo)",
      close: async () => {},
    }
  }
  const dir = dataDirectory()
  mkdirSync(dir, { recursive: true })
  const unlock = lockFolder(dir)
  try {
    const secret = process.env.AUTH_SECRET ?? persistentSecret(dir)
    const databaseDir = join(dir, "pglite")
    if (!existsSync(join(databaseDir, "PG_VERSION"))) options.onSlowStart?.(databaseDir)
    // Imported here so that --memory never loads the WebAssembly database.
    const { PGlite } = await import("@electric-sql/pglite")
    const db = await PGlite.create(databaseDir)
    await migrate(db)
    const shown = relative(process.cwd(), databaseDir)
    return {
      adapter: PostgresAdapter(db),
      secret,
      description: `PGlite in ${shown.startsWith("..") || shown === "" ? databaseDir : shown} (users and sessions survive a restart; delete the folder to start over)`,
      close: async () => {
        try {
          await db.close()
        } finally {
          unlock()
        }
      },
    }
  } catch (error) {
    unlock()
    throw error
  }
}
