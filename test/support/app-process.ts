// An app server in a child process of its own (node --import tsx <module>), for the tests that run several app
// processes against one shared database or store. The module prints `{"port": N}` on its first stdout line once it
// listens, and exits when its stdin closes.
import { type ChildProcess, spawn } from "node:child_process"

export interface AppProcess {
  origin: string
  child: ChildProcess
}

/** Starts `module` with `env` added to this process's environment; resolves once it listens (15 s at most). */
export async function startAppProcess(module: string, env: Record<string, string>): Promise<AppProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", module], {
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "inherit"],
  })
  const port = await new Promise<number>((resolve, reject) => {
    let buf = ""
    const timer = setTimeout(() => reject(new Error("app process did not start within 15 s")), 15_000)
    child.stdout?.on("data", (c: Buffer) => {
      buf += c.toString("utf8")
      const line = buf.split("\n")[0]
      if (buf.includes("\n") && line) {
        clearTimeout(timer)
        resolve((JSON.parse(line) as { port: number }).port)
      }
    })
    child.once("exit", (code) => reject(new Error(`app process exited with ${code}`)))
  })
  return { origin: `http://127.0.0.1:${port}`, child }
}

/** Closes the app's stdin and waits for it to exit (killed after 3 s). */
export async function stopAppProcess(app: AppProcess): Promise<void> {
  if (app.child.exitCode !== null) return
  await new Promise<void>((resolve) => {
    app.child.once("exit", () => resolve())
    app.child.stdin?.end()
    setTimeout(() => app.child.kill(), 3_000).unref()
  })
}
