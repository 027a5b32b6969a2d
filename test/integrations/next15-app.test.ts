// examples/next under Next 15 (the `next15` dev dependency), over real HTTP: the same app as next-app.test.ts, with
// proxy.ts replaced by a `middleware.ts` on the Node.js runtime (next15/middleware.ts). `next build` then `next start`
// of a scratch copy; checks the middleware's sign-in redirect, credentials sign-in through /api/auth, auth() in server
// components and a wrapped route handler, server-action signIn/signOut/unstable_update, and sign-out. A second build
// is the Edge test app (next-edge/app.ts: the official example's middleware.ts, no runtime, and Edge route handlers
// and server actions), signed in and out in headless Chromium.
// Uses dist/ (built on first need by test/support/dist.ts): the scratch app installs gatehouse from it.
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { skipReason } from "../e2e/support/chromium.js"
import { isDeletion, sessionCookieNames, setCookieList } from "../support/cookies.js"
import { expectBuiltForEdge, signInAndOutOnEdge } from "./next-edge/app.js"
import { Client, NextProcess, next15Version, prepareNext15App, removeApp, text } from "./next15/harness.js"

let dir: string | undefined
let build: NextProcess | undefined
let server: NextProcess | undefined
let origin = ""
let buildOutput = ""

/** The environment of `next build` / `next start`: production, and no AUTH_* from the test run's shell. */
function nextEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" }
  delete env.AUTH_SECRET
  delete env.AUTH_URL
  delete env.AUTH_TRUST_HOST
  return env
}

const signedOutCookie = (res: Response): boolean =>
  setCookieList(res).some((c) => c.name === "authjs.session-token" && isDeletion(c))

describe("examples/next on Next 15 (middleware.ts, runtime nodejs)", () => {
  beforeAll(async () => {
    dir = prepareNext15App()
    const env = nextEnv()
    const started = Date.now()
    build = new NextProcess(dir, ["build"], env)
    const code = await build.exited
    buildOutput = build.output
    console.log(`next build (Next ${next15Version()}) took ${((Date.now() - started) / 1000).toFixed(1)} s`)
    if (code !== 0) throw new Error(`next build (Next 15) failed (${code}):\n${build.output}`)
    server = new NextProcess(dir, ["start", "-p", "0", "-H", "127.0.0.1"], env)
    origin = await server.origin(30_000)
  }, 300_000) // `next build` may share the two cores with another file's build (vitest runs a worker per core)

  afterAll(async () => {
    await build?.stop() // still running only when beforeAll timed out
    await server?.stop()
    removeApp(dir)
  })

  it("is built by Next 15 with the middleware on the Node.js runtime", () => {
    expect(buildOutput).toContain(`Next.js ${next15Version()}`)
    expect(next15Version()).toMatch(/^15\./)
    const functions = JSON.parse(readFileSync(join(dir!, ".next/server/functions-config-manifest.json"), "utf8")) as {
      functions: Record<string, { runtime?: string }>
    }
    expect(functions.functions["/_middleware"]?.runtime).toBe("nodejs")
  })

  it("protects /protected through the middleware, signs in with credentials, shows the session, and signs out", async () => {
    const client = new Client(origin)
    expect(text(await client.html("/"))).toContain("Server component (auth()): signed out")

    const gate = await client.request("/protected")
    expect(gate.status).toBe(307)
    // Next 15 writes a same-origin Location with the host "localhost" for 127.0.0.1 (its NextURL normalizes loopback).
    expect(gate.headers.get("location")).toMatch(
      new RegExp(`^http://(127\\.0\\.0\\.1|localhost):${new URL(origin).port}/api/auth/signin\\?`),
    )
    expect(client.location(gate).pathname).toBe("/api/auth/signin")
    expect(client.location(gate).searchParams.get("callbackUrl")).toBe(`${origin}/protected`)
    expect(await client.html(`${client.location(gate).pathname}${client.location(gate).search}`)).toContain(
      "/api/auth/callback/credentials",
    )
    expect((await client.request("/api/me")).status).toBe(401)

    const wrong = await client.postForm("/api/auth/callback/credentials", {
      csrfToken: await client.csrf(),
      username: "demo",
      password: "nope",
    })
    expect(client.location(wrong).searchParams.get("error")).toBe("CredentialsSignin")
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

    const page = await client.request("/protected")
    expect(page.status).toBe(200)
    expect(text(await page.text())).toContain("Welcome, Demo User.")
    expect(text(await client.html("/"))).toContain("Server component (auth()): signed in as Demo User")
    expect(await (await client.request("/api/me")).json()).toEqual({ name: "Demo User" })
    expect(await (await client.request("/api/auth/session")).json()).toMatchObject({
      user: { name: "Demo User", email: "demo@example.com" },
    })

    const out = await client.postForm("/api/auth/signout", { csrfToken: await client.csrf() })
    expect(out.status).toBe(302)
    expect(signedOutCookie(out)).toBe(true)
    expect((await client.request("/protected")).status).toBe(307)
    expect(text(await client.html("/"))).toContain("Server component (auth()): signed out")
  })

  it("signs in and out with the server actions (no-JS multipart posts; cookies through next/headers)", async () => {
    const client = new Client(origin)
    const wrong = await client.submitAction("/", await client.html("/"), 'name="password"', {
      username: "demo",
      password: "nope",
      redirectTo: "/protected",
    })
    expect(wrong.status).toBe(303)
    expect(client.location(wrong).pathname + client.location(wrong).search).toBe("/?error=CredentialsSignin")
    expect(sessionCookieNames(wrong)).toEqual([])

    const signedIn = await client.submitAction("/", await client.html("/"), 'name="password"', {
      username: "demo",
      password: "demo",
      redirectTo: "/protected",
    })
    expect(signedIn.status).toBe(303)
    expect(client.location(signedIn).href).toBe(`${origin}/protected`)
    expect(sessionCookieNames(signedIn)).toEqual(["authjs.session-token"])
    expect(text(await client.html("/protected"))).toContain("Welcome, Demo User.")
    expect(text(await client.html("/"))).toContain("Server component (auth()): signed in as Demo User")

    const signedOut = await client.submitAction("/", await client.html("/"), "Sign out (server action)", {})
    expect(signedOut.status).toBe(303)
    expect(client.location(signedOut).href).toBe(`${origin}/`)
    expect(signedOutCookie(signedOut)).toBe(true)
    expect((await client.request("/protected")).status).toBe(307)
  })

  it("updates the session from a server action with unstable_update", async () => {
    const client = new Client(origin)
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
})

describe("gatehouse/next on the Edge runtime (Next 15): the official example's middleware.ts, Edge route handlers and server actions", () => {
  let edgeDir: string | undefined
  let edgeBuild: NextProcess | undefined
  let edgeServer: NextProcess | undefined
  afterAll(async () => {
    await edgeBuild?.stop()
    await edgeServer?.stop()
    removeApp(edgeDir)
  })

  it("is built for Edge, then signs in and out in Chromium through the middleware, route handlers and server actions", async () => {
    edgeDir = prepareNext15App("edge")
    edgeBuild = new NextProcess(edgeDir, ["build"], nextEnv())
    if ((await edgeBuild.exited) !== 0) throw new Error(`next build (Next 15, Edge app) failed:\n${edgeBuild.output}`)
    expectBuiltForEdge(edgeDir, edgeBuild.output)
    // Without Chromium outside CI (a fresh machine) the build is still checked; CI always has the browser.
    if (skipReason) return
    edgeServer = new NextProcess(edgeDir, ["start", "-p", "0", "-H", "127.0.0.1"], nextEnv())
    // localhost: Next 15 writes a loopback Location with it, and the session cookie must stay on one host.
    await signInAndOutOnEdge((await edgeServer.origin(30_000)).replace("127.0.0.1", "localhost"))
  }, 300_000)
})
