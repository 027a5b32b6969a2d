// examples/express started with the one command of its README (no AUTH_SECRET set), then used over real HTTP:
// the protected page sends a visitor to sign in, the demo user signs in and sees the session, and signs out.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { Client } from "./express-kit.js"
import { isDeletion, setCookieList } from "../support/cookies.js"

const root = fileURLToPath(new URL("../../", import.meta.url))
let child: ChildProcess
let origin: string

beforeAll(async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: "0" }
  delete env.AUTH_SECRET
  // The README's command, `npx tsx examples/express/server.ts`, run through the local tsx binary (npx resolves to it).
  child = spawn(`${root}node_modules/.bin/tsx`, ["examples/express/server.ts"], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  })
  let output = ""
  origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the example did not start:\n${output}`)), 20_000)
    const onData = (chunk: Buffer): void => {
      output += chunk.toString()
      const port = /http:\/\/localhost:(\d+)/.exec(output)?.[1]
      if (port) {
        clearTimeout(timer)
        resolve(`http://127.0.0.1:${port}`)
      }
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    child.once("exit", (code) => reject(new Error(`the example exited with ${code}:\n${output}`)))
  })
  expect(output).toContain("AUTH_SECRET is not set")
}, 30_000)

afterAll(async () => {
  if (child.exitCode !== null) return
  const exited = new Promise((resolve) => child.once("exit", resolve))
  child.kill("SIGTERM")
  await exited
})

describe("examples/express", () => {
  it("protects /protected, signs the demo user in, shows the session, and signs out", async () => {
    const client = new Client(origin)
    const home = await client.request("/")
    expect(await home.text()).toContain("You are not signed in")

    const gate = await client.request("/protected")
    expect(gate.status).toBe(302)
    expect(gate.headers.get("location")).toBe("/auth/signin?callbackUrl=%2Fprotected")
    const signInPage = await client.request("/auth/signin?callbackUrl=%2Fprotected")
    expect(signInPage.status).toBe(200)
    expect(await signInPage.text()).toContain("/auth/callback/credentials")

    const wrong = await client.signIn("demo", "nope")
    expect(wrong.headers.get("location")).toContain("error=CredentialsSignin")

    const signedIn = await client.signIn("demo", "demo", { callbackUrl: `${origin}/protected` })
    expect(signedIn.status).toBe(302)
    expect(signedIn.headers.get("location")).toBe(`${origin}/protected`)
    const page = await client.request("/protected")
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain("demo@example.com")
    expect(html).toContain("Demo User")
    expect(await (await client.request("/")).text()).toContain("Signed in as <strong>Demo User</strong>")

    const signOutPage = await client.request("/auth/signout")
    expect(signOutPage.status).toBe(200)
    const out = await client.postForm("/auth/signout", { csrfToken: await client.csrf() })
    expect(out.status).toBe(302)
    expect(setCookieList(out).some((c) => c.name === "authjs.session-token" && isDeletion(c))).toBe(true)
    expect((await client.request("/protected")).status).toBe(302)
  })
})
