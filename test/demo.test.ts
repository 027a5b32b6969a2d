// Smoke test of `npm run demo`: the demo as a child process (node --import tsx demo/server.ts), signed into over HTTP with each
// server-side method (password, e-mail link from the inbox, Local OIDC), stopped with SIGINT; and on PGlite, a restart
// that keeps the session.
import { spawn, type ChildProcess } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { freePort } from "./support/listen.js"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const ROOT = new URL("..", import.meta.url)

interface RunningDemo {
  url: string
  output: () => string
  /** Sends the signal and resolves with the exit code and how long the exit took. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; ms: number }>
}

/** Starts the demo and resolves once it printed its "Ready:" line. */
async function startDemo(options: { memory: boolean; dataDir?: string; port?: number }): Promise<RunningDemo> {
  const port = options.port ?? (await freePort())
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port) }
  delete env.AUTH_SECRET
  delete env.AUTH_URL
  if (options.dataDir) env.DEMO_DATA_DIR = options.dataDir
  // As `npm run demo` runs it (node --import tsx: one process, whose exit code is the demo's), in a process group of
  // its own; stop() signals the whole group, as a terminal's Ctrl-C does.
  const args = ["--import", "tsx", "demo/server.ts", ...(options.memory ? ["--memory"] : [])]
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  })
  let output = ""
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  const url = `http://localhost:${port}`
  await new Promise<void>((resolve, reject) => {
    const deadline = setTimeout(() => {
      process.kill(-child.pid!, "SIGKILL")
      reject(new Error(`demo did not start within 60 s:\n${output}`))
    }, 60_000)
    const check = setInterval(() => {
      if (output.includes(`Ready: ${url}`)) {
        clearInterval(check)
        clearTimeout(deadline)
        resolve()
      }
    }, 50)
    void exited.then((code) => {
      clearInterval(check)
      clearTimeout(deadline)
      reject(new Error(`demo exited with ${code} before it was ready:\n${output}`))
    })
  })
  return {
    url,
    output: () => output,
    async stop(signal = "SIGINT") {
      const sent = Date.now()
      const group = (sig: NodeJS.Signals) => {
        try {
          process.kill(-child.pid!, sig)
        } catch {
          // the group is gone already
        }
      }
      group(signal)
      const code = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), 8000))])
      if (code === null) group("SIGKILL")
      return { code, ms: Date.now() - sent }
    },
  }
}

/** A browser's cookies for one site: name → value, updated from each response. */
class CookieJar {
  readonly cookies = new Map<string, string>()
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ")
  }
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = "", ...attrs] = line.split(";")
      const eq = pair.indexOf("=")
      const name = pair.slice(0, eq).trim()
      const value = pair.slice(eq + 1).trim()
      const gone = value === "" || attrs.some((a) => /^\s*max-age=(0|-)/i.test(a))
      if (gone) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }
}

/** One request as a browser would send it from this jar, redirects not followed. */
async function visit(jar: CookieJar, url: string, form?: Record<string, string>): Promise<Response> {
  const res = await fetch(url, {
    method: form ? "POST" : "GET",
    redirect: "manual",
    headers: { cookie: jar.header(), ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    ...(form ? { body: new URLSearchParams(form).toString() } : {}),
  })
  jar.take(res)
  return res
}

async function csrfToken(demo: RunningDemo, jar: CookieJar): Promise<string> {
  return ((await (await visit(jar, `${demo.url}/auth/csrf`)).json()) as { csrfToken: string }).csrfToken
}

async function sessionOf(
  demo: RunningDemo,
  jar: CookieJar,
): Promise<{ user?: { id?: string; name?: string | null; email?: string | null } } | null> {
  return (await (await visit(jar, `${demo.url}/auth/session`)).json()) as {
    user?: { name?: string | null; email?: string | null }
  } | null
}

async function passwordSignIn(demo: RunningDemo, jar: CookieJar): Promise<Response> {
  return visit(jar, `${demo.url}/auth/callback/credentials`, {
    csrfToken: await csrfToken(demo, jar),
    username: "demo",
    password: "demo",
    callbackUrl: "/",
  })
}

describe("npm run demo --memory", () => {
  let demo: RunningDemo

  beforeAll(async () => {
    demo = await startDemo({ memory: true })
  }, 60_000)

  afterAll(async () => {
    await demo?.stop("SIGKILL")
  })

  it("prints what it started: the app, inbox, OIDC issuer, SMTP catcher, the database and the demo accounts", () => {
    const out = demo.output()
    expect(out).toContain(`App           ${demo.url}`)
    expect(out).toContain(`${demo.url}/inbox`)
    expect(out).toMatch(/Local OIDC {4}http:\/\/127\.0\.0\.1:\d+/)
    expect(out).toMatch(/SMTP catcher {2}smtp:\/\/127\.0\.0\.1:\d+/)
    expect(out).toContain("Database      memory")
    expect(out).toContain("demo / demo")
    expect(out).toContain("alice / alice")
    expect(out).not.toContain("oidc-provider WARNING")
  })

  it("serves the home page, signed out, with the sign-in options", async () => {
    const res = await fetch(`${demo.url}/`)
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('id="signed-out"')
    expect(html).toContain('<pre id="session">null</pre>')
    expect(html).toContain('href="/inbox"')
  })

  it("lists the four providers on /auth/providers", async () => {
    const providers = (await (await fetch(`${demo.url}/auth/providers`)).json()) as Record<
      string,
      { type: string; name: string }
    >
    expect(Object.fromEntries(Object.entries(providers).map(([id, p]) => [id, p.type]))).toEqual({
      credentials: "credentials",
      "local-oidc": "oidc",
      nodemailer: "email",
      passkey: "webauthn",
    })
  })

  it("redirects /protected to the sign-in page when signed out", async () => {
    const res = await fetch(`${demo.url}/protected`, { redirect: "manual" })
    expect(res.status).toBe(303)
    expect(res.headers.get("location")).toBe("/auth/signin?callbackUrl=%2Fprotected")
  })

  it("serves the /react page and its bundle, and gatehouse/webauthn", async () => {
    expect(await (await fetch(`${demo.url}/react`)).text()).toContain('<script type="module" src="/react.js">')
    for (const path of ["/react.js", "/webauthn.js"]) {
      const res = await fetch(`${demo.url}${path}`)
      expect(res.headers.get("content-type")).toContain("text/javascript")
      expect((await res.text()).length).toBeGreaterThan(1000)
    }
  })

  it("signs in with demo / demo (a database session), and /protected then shows the page", async () => {
    const jar = new CookieJar()
    const res = await passwordSignIn(demo, jar)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${demo.url}/`)
    expect(await sessionOf(demo, jar)).toMatchObject({
      user: { id: "demo-password-user", name: "Demo User", email: "demo@example.com" },
    })
    const page = await visit(jar, `${demo.url}/protected`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('id="protected"')
  })

  it("signs in by e-mail: verify-request leads to the inbox, whose link signs in", async () => {
    const jar = new CookieJar()
    const address = `smoke-${Date.now()}@example.com`
    const sent = await visit(jar, `${demo.url}/auth/signin/nodemailer`, {
      csrfToken: await csrfToken(demo, jar),
      email: address,
      callbackUrl: "/",
    })
    expect(sent.status).toBe(302)
    const verify = await visit(jar, sent.headers.get("location")!)
    expect(verify.headers.get("location")).toMatch(/^\/inbox\?/)
    const inbox = await (await visit(jar, new URL(verify.headers.get("location")!, demo.url).href)).text()
    expect(inbox).toContain('id="check-email"')
    expect(inbox).toContain(`<dd class="mail-to">${address}</dd>`)
    const { mails } = (await (await fetch(`${demo.url}/inbox.json`)).json()) as {
      mails: Array<{ to: string[]; links: string[] }>
    }
    const link = mails.find((m) => m.to.includes(address))?.links[0]
    expect(link).toMatch(new RegExp(`^${demo.url}/auth/callback/nodemailer\\?`))
    const back = await visit(jar, link!)
    expect(back.status).toBe(302)
    expect(await sessionOf(demo, jar)).toMatchObject({ user: { email: address } })
  })

  it("signs in with Local OIDC: authorization request, the OP's login form, code + PKCE + ID token", async () => {
    const app = new CookieJar()
    const op = new CookieJar()
    const start = await visit(app, `${demo.url}/auth/signin/local-oidc`, {
      csrfToken: await csrfToken(demo, app),
      callbackUrl: "/",
    })
    const authorize = new URL(start.headers.get("location")!)
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256")
    expect(authorize.searchParams.get("nonce")).toBeTruthy()
    const interaction = await visit(op, authorize.href)
    const loginUrl = new URL(interaction.headers.get("location")!, authorize)
    const form = await (await visit(op, loginUrl.href)).text()
    // The login form comes filled in with the demo account.
    expect(form).toContain('name="login" type="text" autocomplete="username" value="alice"')
    const action = /<form id="login-form" method="post" action="([^"]+)"/.exec(form)?.[1]
    const resumed = await visit(op, new URL(action!, loginUrl).href, { login: "alice", password: "alice" })
    const callback = await visit(op, new URL(resumed.headers.get("location")!, loginUrl).href)
    const callbackUrl = new URL(callback.headers.get("location")!)
    expect(callbackUrl.origin + callbackUrl.pathname).toBe(`${demo.url}/auth/callback/local-oidc`)
    const done = await visit(app, callbackUrl.href)
    expect(done.status).toBe(302)
    expect(done.headers.get("location")).toBe(`${demo.url}/`)
    expect(await sessionOf(demo, app)).toMatchObject({ user: { name: "Alice Example", email: "alice@example.com" } })
  })

  it("stops on SIGINT with exit code 0 within a few seconds", async () => {
    const { code, ms } = await demo.stop("SIGINT")
    expect(code).toBe(0)
    expect(ms).toBeLessThan(5000)
    expect(demo.output()).toContain("Stopped.")
  })
})

describe("npm run demo on PGlite", () => {
  let dataDir: string

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), "gatehouse-demo-"))
  })

  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("keeps a session across a restart (same data folder, same cookie)", async () => {
    const port = await freePort()
    const first = await startDemo({ memory: false, dataDir, port })
    let stopped = false
    try {
      expect(first.output()).toContain(`Database      PGlite in ${join(dataDir, "pglite")}`)
      const jar = new CookieJar()
      expect((await passwordSignIn(first, jar)).status).toBe(302)
      const before = await sessionOf(first, jar)
      expect(before).toMatchObject({ user: { name: "Demo User" } })
      expect((await first.stop("SIGTERM")).code).toBe(0)
      stopped = true

      const second = await startDemo({ memory: false, dataDir, port })
      try {
        expect(await sessionOf(second, jar)).toMatchObject({ user: { id: before?.user?.id, name: "Demo User" } })
        // Signing in again finds the same user (its credentials account row), not a second one.
        const fresh = new CookieJar()
        expect((await passwordSignIn(second, fresh)).status).toBe(302)
        expect((await sessionOf(second, fresh))?.user?.id).toBe(before?.user?.id)
      } finally {
        expect((await second.stop("SIGINT")).code).toBe(0)
      }
    } finally {
      if (!stopped) await first.stop("SIGKILL")
    }
  }, 150_000)
})
