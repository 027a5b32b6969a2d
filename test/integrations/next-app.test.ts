// examples/next built with `next build` and served by `next start` on 127.0.0.1, then used over real HTTP: the proxy
// sends a signed-out visitor to sign in, the credentials sign-in through /api/auth, auth() in server components and
// a wrapped route handler, server-action signIn/signOut/unstable_update (next/headers paths), and sign-out.
// Uses dist/ (built on first need by test/support/dist.ts): the example imports gatehouse/next through the package's own exports.
import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium, skipReason } from "../e2e/support/chromium.js"
import { CookieJar, isDeletion, sessionCookieNames, setCookieList } from "../support/cookies.js"
import { ensureDist } from "../support/dist.js"

const root = fileURLToPath(new URL("../../", import.meta.url))
const exampleDir = `${root}examples/next`
const nextBin = `${root}node_modules/next/dist/bin/next`
let server: ChildProcess | undefined
let origin = ""
let output = ""

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))))
    })
  })
}

function run(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, [nextBin, ...args], {
    cwd: exampleDir,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  })
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  return child
}

beforeAll(async () => {
  ensureDist()
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" }
  delete env.AUTH_SECRET
  delete env.AUTH_URL
  delete env.AUTH_TRUST_HOST
  const started = Date.now()
  const build = run(["build"], env)
  const code = await new Promise<number | null>((resolve) => build.once("exit", resolve))
  console.log(`next build took ${((Date.now() - started) / 1000).toFixed(1)} s`)
  if (code !== 0) throw new Error(`next build failed (${code}):\n${output}`)
  const port = await freePort()
  origin = `http://127.0.0.1:${port}`
  server = run(["start", "-p", String(port), "-H", "127.0.0.1"], env)
  const deadline = Date.now() + 30_000
  for (;;) {
    if (server.exitCode !== null) throw new Error(`next start exited (${server.exitCode}):\n${output}`)
    try {
      await fetch(`${origin}/api/auth/providers`)
      break
    } catch {
      if (Date.now() > deadline) throw new Error(`next start did not answer:\n${output}`)
      await new Promise((r) => setTimeout(r, 200))
    }
  }
}, 300_000) // `next build` may share the two cores with another file's build (vitest runs a worker per core)

afterAll(async () => {
  if (!server || server.exitCode !== null) return
  const exited = new Promise((resolve) => server!.once("exit", resolve))
  process.kill(-server.pid!, "SIGTERM")
  await exited
})

/** A cookie-keeping client that never follows redirects. */
class Client {
  readonly jar = new CookieJar()
  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers)
    const cookie = this.jar.header()
    if (cookie) headers.set("cookie", cookie)
    const res = await fetch(`${origin}${path}`, { ...init, headers, redirect: "manual" })
    this.jar.store(res)
    return res
  }
  async html(path: string): Promise<string> {
    const res = await this.request(path)
    expect(res.status).toBe(200)
    return res.text()
  }
  async csrf(): Promise<string> {
    return ((await (await this.request("/api/auth/csrf")).json()) as { csrfToken: string }).csrfToken
  }
  postForm(path: string, form: Record<string, string>): Promise<Response> {
    return this.request(path, { method: "POST", body: new URLSearchParams(form) })
  }
  /** Submits a server-action form as a browser without JavaScript does (multipart, with the action's hidden id). */
  async submitAction(page: string, html: string, marker: string, fields: Record<string, string>): Promise<Response> {
    const form = [...html.matchAll(/<form[^>]*>([\s\S]*?)<\/form>/g)].map((m) => m[1]!).find((f) => f.includes(marker))
    expect(form, `a form containing ${marker}`).toBeDefined()
    const actionId = /name="(\$ACTION_ID_[^"]+)"/.exec(form!)?.[1]
    expect(actionId).toBeDefined()
    const body = new FormData()
    body.set(actionId!, "")
    for (const [name, value] of Object.entries(fields)) body.set(name, value)
    return this.request(page, { method: "POST", body, headers: { origin } })
  }
}

/** A redirect's target as an absolute URL (Next shortens same-origin Locations to a path). */
function location(res: Response): URL {
  return new URL(res.headers.get("location")!, origin)
}

const text = (html: string): string => html.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, "")

describe("examples/next (next build + next start)", () => {
  it("protects /protected through the proxy, signs in with credentials, shows the session, and signs out", async () => {
    const client = new Client()
    expect(text(await client.html("/"))).toContain("Server component (auth()): signed out")

    const gate = await client.request("/protected")
    expect(gate.status).toBe(307)
    expect(location(gate).pathname).toBe("/api/auth/signin")
    expect(location(gate).searchParams.get("callbackUrl")).toBe(`${origin}/protected`)
    expect(await client.html(`${location(gate).pathname}${location(gate).search}`)).toContain(
      "/api/auth/callback/credentials",
    )
    expect((await client.request("/api/me")).status).toBe(401)

    const wrong = await client.postForm("/api/auth/callback/credentials", {
      csrfToken: await client.csrf(),
      username: "demo",
      password: "nope",
    })
    expect(location(wrong).searchParams.get("error")).toBe("CredentialsSignin")
    expect(sessionCookieNames(wrong)).toEqual([])

    const signedIn = await client.postForm("/api/auth/callback/credentials", {
      csrfToken: await client.csrf(),
      username: "demo",
      password: "demo",
      callbackUrl: `${origin}/protected`,
    })
    expect(signedIn.status).toBe(302)
    expect(signedIn.headers.get("location")).toBe(`${origin}/protected`)
    expect(sessionCookieNames(signedIn)).toEqual(["authjs.session-token"])

    expect(text(await client.html("/protected"))).toContain("Welcome, Demo User.")
    expect(text(await client.html("/"))).toContain("Server component (auth()): signed in as Demo User")
    expect(await (await client.request("/api/me")).json()).toEqual({ name: "Demo User" })
    expect(await (await client.request("/api/auth/session")).json()).toMatchObject({
      user: { name: "Demo User", email: "demo@example.com" },
    })

    const out = await client.postForm("/api/auth/signout", { csrfToken: await client.csrf() })
    expect(out.status).toBe(302)
    expect(setCookieList(out).some((c) => c.name === "authjs.session-token" && isDeletion(c))).toBe(true)
    expect((await client.request("/protected")).status).toBe(307)
    expect(text(await client.html("/"))).toContain("signed out")
  })

  it("signs in and out with the server actions (signIn/signOut write cookies through next/headers and redirect)", async () => {
    const client = new Client()
    const wrong = await client.submitAction("/", await client.html("/"), 'name="password"', {
      username: "demo",
      password: "nope",
      redirectTo: "/protected",
    })
    expect(wrong.status).toBe(303)
    expect(location(wrong).pathname + location(wrong).search).toBe("/?error=CredentialsSignin")
    expect(sessionCookieNames(wrong)).toEqual([])

    const signedIn = await client.submitAction("/", await client.html("/"), 'name="password"', {
      username: "demo",
      password: "demo",
      redirectTo: "/protected",
    })
    expect(signedIn.status).toBe(303)
    expect(location(signedIn).href).toBe(`${origin}/protected`)
    expect(sessionCookieNames(signedIn)).toEqual(["authjs.session-token"])
    expect(text(await client.html("/protected"))).toContain("Welcome, Demo User.")

    const home = await client.html("/")
    const signedOut = await client.submitAction("/", home, "Sign out (server action)", {})
    expect(signedOut.status).toBe(303)
    expect(location(signedOut).href).toBe(`${origin}/`)
    expect(setCookieList(signedOut).some((c) => c.name === "authjs.session-token" && isDeletion(c))).toBe(true)
    expect((await client.request("/protected")).status).toBe(307)
  })

  it("updates the session from a server action with unstable_update", async () => {
    const client = new Client()
    await client.submitAction("/", await client.html("/"), 'name="password"', {
      username: "demo",
      password: "demo",
      redirectTo: "/protected",
    })
    const renamed = await client.submitAction("/protected", await client.html("/protected"), 'name="name"', {
      name: "Renamed User",
    })
    expect(renamed.status).toBe(303)
    expect(sessionCookieNames(renamed)).toEqual(["authjs.session-token"])
    expect(text(await client.html("/protected"))).toContain("Welcome, Renamed User.")
    expect(await (await client.request("/api/me")).json()).toEqual({ name: "Renamed User" })
  })

  it.skipIf(skipReason)(
    "shows useSession's status in the client component, following server-action sign-in and sign-out (Chromium)",
    async () => {
      const browser = await launchChromium()
      try {
        const page = await browser.newPage()
        const clientSession = (): Promise<string | null> => page.textContent('[data-testid="client-session"]')
        await page.goto(`${origin}/`)
        await expect.poll(clientSession).toMatch(/useSession\): unauthenticated/)
        await page.click("text=Sign in (server action)")
        await page.waitForURL(`${origin}/protected`)
        expect(await page.textContent('[data-testid="protected-user"]')).toBe("Welcome, Demo User.")
        await page.click("nav >> text=Home")
        await page.waitForURL(`${origin}/`)
        await expect.poll(clientSession).toMatch(/useSession\): authenticated as Demo User/)
        await page.click("text=Sign out (server action)")
        await expect.poll(clientSession).toMatch(/useSession\): unauthenticated/)
        expect(await page.textContent('[data-testid="server-session"]')).toMatch(/signed out/)
      } finally {
        await browser.close()
      }
    },
  )
})
