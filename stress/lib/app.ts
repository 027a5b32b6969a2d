// Stress harness: forks the app server (stress/lib/server.ts) as its own process and talks to it over IPC.
import { type ChildProcess, fork } from "node:child_process"
import { fileURLToPath } from "node:url"
import type { AppOptions, Command, Invariants, Ready, Reply, ServerStats } from "./protocol.js"

const SERVER = fileURLToPath(new URL("./server.ts", import.meta.url))

export interface App {
  /** http://127.0.0.1:<port> */
  readonly origin: string
  readonly backend: string
  readonly pid: number
  call<T = unknown>(command: Command, timeoutMs?: number): Promise<T>
  stats(): Promise<ServerStats & { sampleErrors: string[] }>
  invariants(): Promise<Invariants>
  /** Stops the server (drops its scratch schema) and waits for the process to exit. */
  stop(): Promise<void>
}

/** Whether a real PostgreSQL is configured; otherwise database runs use PGlite inside the server process. */
export const realPostgres = (): boolean => Boolean(process.env.DATABASE_URL)
export const databaseBackend = (): AppOptions["db"] => (realPostgres() ? "postgres" : "pglite")

export async function startApp(options: AppOptions): Promise<App> {
  const child: ChildProcess = fork(SERVER, [], {
    execArgv: ["--import", "tsx", "--expose-gc"],
    env: { ...process.env, STRESS_APP_OPTIONS: JSON.stringify(options) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  })
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const ready = await new Promise<Ready>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the app server did not start within 60 s")), 60_000)
    child.once("message", (m) => {
      clearTimeout(timer)
      resolve(m as Ready)
    })
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`the app server exited with code ${code} before it was ready`))
    })
  })
  if (!ready.ready) {
    child.kill()
    throw new Error(`the app server failed to start: ${ready.error}`)
  }
  let next = 1
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  child.on("message", (m) => {
    const reply = m as Reply
    const waiter = pending.get(reply.id)
    if (!waiter) return
    pending.delete(reply.id)
    if (reply.ok) waiter.resolve(reply.result)
    else waiter.reject(new Error(reply.error))
  })
  child.on("exit", () => {
    for (const w of pending.values()) w.reject(new Error("the app server exited"))
    pending.clear()
  })
  const call = <T>(command: Command, timeoutMs = 120_000): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = next++
      const timer = setTimeout(() => {
        pending.delete(id)
        reject(new Error(`app server command ${command.cmd} timed out`))
      }, timeoutMs)
      pending.set(id, {
        resolve: (v) => {
          clearTimeout(timer)
          resolve(v as T)
        },
        reject: (e) => {
          clearTimeout(timer)
          reject(e)
        },
      })
      child.send({ ...command, id })
    })
  return {
    origin: `http://127.0.0.1:${ready.port}`,
    backend: ready.backend,
    pid: child.pid ?? -1,
    call,
    stats: () => call({ cmd: "stats" }),
    invariants: () => call({ cmd: "invariants" }),
    async stop() {
      if (child.exitCode !== null) return
      await call({ cmd: "stop" }, 30_000).catch(() => child.kill())
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000)
      await exited
      clearTimeout(timer)
    },
  }
}
