// Gatehouse inside the other JavaScript runtimes (test/runtimes/*.test.ts): the built package (dist/) served by the
// Edge runtime, workerd, Bun or Deno on 127.0.0.1, driven from Node over HTTP. Each file starts one app (apps/ in
// test/runtimes) and one local OpenID Provider, then runs the same four checks:
// - credentials sign-in: GET /csrf, POST /callback/credentials, GET /session (status, cookies and their attributes);
// - the session token travels: one minted on Node (dist's gatehouse/jwt) opens there, the one minted there decodes
//   on Node (same secret, salt = the cookie name);
// - a tampered session cookie (one character of the ciphertext changed) reads as no session, and the app goes on;
// - an OpenID Connect sign-in against the local OP, through login and consent, ending signed in.
// The app is reached through the virtual public origin http://localhost:3000 (the redirect URI the OP registers):
// the test's browser forwards each request to the app's real address with X-Forwarded-Host, which the app trusts
// (trustHost), so the OP can start before the app and the app's port can be the OS's choice.
import { spawn, spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import { afterAll, beforeAll, expect, it } from "vitest"
import type * as Jwt from "../../src/jwt/index.js"
import { type AppEnv, BASE_PATH, USER } from "../runtimes/apps/fixture.js"
import { Browser, type Handler } from "./browser.js"
import { sessionCookiesCleared, sessionCookiesSet, setCookies } from "./cookies.js"
import { ensureDist } from "./dist.js"
import { OP_USERS, type OidcOp, RP_ORIGIN, startOidcProvider } from "./oidc-op.js"

export const ROOT = fileURLToPath(new URL("../../", import.meta.url))
/** Where the test's browser believes the app is; the OP's registered redirect URI is on it. */
const PUBLIC_ORIGIN = RP_ORIGIN
const SECRET = "runtime-tests-secret-of-at-least-32-characters"
/** http: no __Secure- prefix. The salt of the session JWE is the cookie name. */
const SESSION_COOKIE = "authjs.session-token"
const LANDING = `${PUBLIC_ORIGIN}/dashboard`
const OLIVIA = OP_USERS[0] as (typeof OP_USERS)[number]
/** Starting a runtime may wait for a dist/ build by another worker first. */
const START_TIMEOUT_MS = 240_000

export interface RuntimeApp {
  /** http://127.0.0.1:<port> */
  origin: string
  stop(): Promise<void>
  /** What the runtime printed so far (a child process's stdout and stderr), for failure messages. */
  output(): string
}

export interface RuntimeSuite {
  /** The running app (after beforeAll). */
  app(): RuntimeApp
  /** A browser whose http://localhost:3000 is the app, logged in at the OP as Olivia when it asks. */
  browser(): Browser
  /** A signed-in browser (credentials sign-in), for a file's own further checks. */
  signedIn(): Promise<Browser>
}

// ---------------------------------------------------------------------------------------------------------
// Building and starting

export interface Bundle {
  code: string
  /** The bundle's input files, relative to the repo root (e.g. dist/crypto/web.js). */
  inputs: string[]
}

/**
 * Bundles an app for a runtime with esbuild: platform neutral (no Node built-in resolves, so a node:* import in the
 * core fails here), the runtime's export conditions picking the package's entries and its #crypto backend.
 */
export async function bundleApp(entry: string, conditions: string[], format: "esm" | "iife"): Promise<Bundle> {
  const result = await build({
    entryPoints: [join(ROOT, entry)],
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    format,
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions,
    target: "es2022",
    metafile: true,
    logLevel: "silent",
    // Not the repo's tsconfig.json: its paths map #crypto to src/crypto/node.ts for type checking, and esbuild
    // would apply them to dist/ too. The package's own "imports" decide, as in an app that installed it.
    tsconfigRaw: {},
  })
  const code = result.outputFiles[0]?.text ?? ""
  return { code, inputs: Object.keys(result.metafile.inputs) }
}

/**
 * A runtime's binary from its registry package: node_modules/.bin/<name> (linked there by the package's postinstall),
 * else the platform package's own copy (the one a blocked postinstall leaves in place). The first that answers
 * `--version` wins; none is an error (the test fails, it is not skipped).
 */
export function runtimeBinary(name: string, platformCopies: string[]): string {
  const candidates = [
    join(ROOT, "node_modules/.bin", name),
    ...platformCopies.map((p) => join(ROOT, "node_modules", p)),
  ]
  for (const candidate of candidates) {
    if (!existsSync(candidate)) continue
    const probe = spawnSync(candidate, ["--version"], { encoding: "utf8", timeout: 30_000 })
    if (probe.status === 0) return candidate
  }
  throw new Error(`${name}: no working binary in ${candidates.join(", ")} (npm ci installs it from the registry)`)
}

const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+)/

/** Spawns a runtime serving an app, resolving once it prints `listening on http://127.0.0.1:<port>`. */
export function spawnApp(command: string, args: string[], env: AppEnv, timeoutMs = 60_000): Promise<RuntimeApp> {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  })
  let output = ""
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill("SIGTERM")
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000)
    await exited
    clearTimeout(timer)
  }
  return new Promise<RuntimeApp>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop()
      reject(new Error(`${command} did not print its address within ${timeoutMs} ms:\n${output}`))
    }, timeoutMs)
    const onData = (chunk: Buffer): void => {
      output += chunk.toString("utf8")
      const found = LISTENING.exec(output)
      if (found?.[1]) {
        clearTimeout(timer)
        resolve({ origin: found[1], stop, output: () => output })
      }
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    child.once("error", (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.once("exit", (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`${command} exited (${code ?? signal}) before listening:\n${output}`))
    })
  })
}

// ---------------------------------------------------------------------------------------------------------
// Talking to the app

/** Sends a request for the public origin to the app's real address, naming the public host in X-Forwarded-Host. */
function forwardTo(origin: string): Handler {
  const publicHost = new URL(PUBLIC_ORIGIN).host
  return async (request) => {
    const url = new URL(request.url)
    const headers = new Headers(request.headers)
    headers.set("x-forwarded-host", publicHost)
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer()
    return fetch(`${origin}${url.pathname}${url.search}`, {
      method: request.method,
      headers,
      ...(body ? { body } : {}),
      redirect: "manual",
    })
  }
}

function formPost(path: string, fields: Record<string, string>): Request {
  return new Request(`${PUBLIC_ORIGIN}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  })
}

async function csrfToken(browser: Browser): Promise<{ res: Response; token: string }> {
  const res = await browser.request(`${PUBLIC_ORIGIN}${BASE_PATH}/csrf`)
  const body = (await res.clone().json()) as { csrfToken?: unknown }
  expect(typeof body.csrfToken, "GET /csrf answers a token").toBe("string")
  return { res, token: body.csrfToken as string }
}

async function sessionOf(browser: Browser): Promise<unknown> {
  const res = await browser.request(`${PUBLIC_ORIGIN}${BASE_PATH}/session`)
  expect(res.status).toBe(200)
  return res.json()
}

/** The session a bare session cookie gives (no browser). */
async function sessionWithCookie(app: RuntimeApp, token: string): Promise<{ res: Response; body: unknown }> {
  const res = await forwardTo(app.origin)(
    new Request(`${PUBLIC_ORIGIN}${BASE_PATH}/session`, { headers: { cookie: `${SESSION_COOKIE}=${token}` } }),
  )
  return { res, body: await res.clone().json() }
}

/** gatehouse/jwt as the package ships it (dist/), for the Node side of the token exchange. */
async function distJwt(): Promise<typeof Jwt> {
  return (await import(join(ROOT, "dist/jwt/index.js"))) as typeof Jwt
}

/** A JWE compact serialization with one character of its ciphertext (the fourth part) changed. */
function tamper(token: string): string {
  const parts = token.split(".")
  const ciphertext = parts[3] ?? ""
  const at = Math.floor(ciphertext.length / 2)
  const flipped = ciphertext[at] === "A" ? "B" : "A"
  parts[3] = `${ciphertext.slice(0, at)}${flipped}${ciphertext.slice(at + 1)}`
  return parts.join(".")
}

function expectLaxHttpOnly(cookie: { attrs: Record<string, string | true> } | undefined, name: string): void {
  expect(cookie, `${name} is set`).toBeDefined()
  expect(cookie?.attrs.httponly, `${name} HttpOnly`).toBe(true)
  expect(String(cookie?.attrs.samesite).toLowerCase(), `${name} SameSite=Lax`).toBe("lax")
  expect(cookie?.attrs.path, `${name} Path=/`).toBe("/")
  // http: (the public origin) gives no Secure attribute.
  expect(cookie?.attrs.secure, `${name} not Secure on http`).toBeUndefined()
}

// ---------------------------------------------------------------------------------------------------------
// The suite

/**
 * Starts the OP and the app (`start` gets the app's environment) around the calling file and registers the four
 * checks. Call it inside the file's describe; it returns handles for the file's own further checks.
 */
export function runtimeSuite(start: (env: AppEnv) => Promise<RuntimeApp>): RuntimeSuite {
  let op: OidcOp | undefined
  let app: RuntimeApp | undefined

  beforeAll(async () => {
    ensureDist()
    op = await startOidcProvider({ providerIds: ["op"] })
    app = await start({
      AUTH_SECRET: SECRET,
      OP_ISSUER: op.issuer,
      OP_CLIENT_ID: op.clients.basic.client_id,
      OP_CLIENT_SECRET: op.clients.basic.client_secret ?? "",
    })
  }, START_TIMEOUT_MS)
  afterAll(async () => {
    await Promise.all([app?.stop(), op?.stop()])
  })

  const running = (): RuntimeApp => {
    if (!app) throw new Error("the runtime app did not start")
    return app
  }
  const browser = (): Browser =>
    new Browser({
      apps: { [PUBLIC_ORIGIN]: forwardTo(running().origin) },
      user: { login: OLIVIA.email, password: OLIVIA.password },
    })

  async function credentialsSignIn(b: Browser): Promise<Response> {
    const { token } = await csrfToken(b)
    return b.request(
      formPost(`${BASE_PATH}/callback/credentials`, {
        csrfToken: token,
        username: USER.username,
        password: USER.password,
        callbackUrl: LANDING,
      }),
    )
  }

  it("signs in with credentials: csrf, callback, session, with the cookies' attributes", async () => {
    const b = browser()
    const { res: csrf } = await csrfToken(b)
    expect(csrf.status).toBe(200)
    expectLaxHttpOnly(setCookies(csrf).get("authjs.csrf-token"), "authjs.csrf-token")

    const signIn = await credentialsSignIn(b)
    expect(signIn.status, running().output()).toBe(302)
    expect(signIn.headers.get("location")).toBe(LANDING)
    const [session, ...more] = sessionCookiesSet(signIn)
    expect(more).toEqual([])
    expect(session?.name).toBe(SESSION_COOKIE)
    expectLaxHttpOnly(session, SESSION_COOKIE)
    // JWT sessions last 30 days by default.
    const expires = Date.parse(String(session?.attrs.expires))
    expect(expires - Date.now()).toBeGreaterThan(29 * 86_400_000)
    expect(session?.value.split(".")).toHaveLength(5)

    const body = (await sessionOf(b)) as { user?: unknown; expires?: string }
    expect(body.user).toEqual({ name: USER.name, email: USER.email })
    expect(Date.parse(body.expires ?? "")).toBeGreaterThan(Date.now())
  })

  it("shares session tokens with Node: minted here opens there, minted there decodes here", async () => {
    const { encode, decode } = await distJwt()
    const minted = await encode({
      token: { name: "Minted On Node", email: "node@example.test", sub: "user-node" },
      secret: SECRET,
      salt: SESSION_COOKIE,
    })
    const opened = await sessionWithCookie(running(), minted)
    expect(opened.res.status).toBe(200)
    expect(opened.body).toMatchObject({ user: { name: "Minted On Node", email: "node@example.test" } })

    const signIn = await credentialsSignIn(browser())
    const there = sessionCookiesSet(signIn).find((c) => c.name === SESSION_COOKIE)?.value ?? ""
    const decoded = await decode({ token: there, secret: SECRET, salt: SESSION_COOKIE })
    expect(decoded).toMatchObject({ name: USER.name, email: USER.email, sub: USER.id })
    // The salt binds a token to its cookie name: another salt does not open it.
    await expect(decode({ token: there, secret: SECRET, salt: "authjs.other-cookie" })).rejects.toThrow()
  })

  it("reads a tampered session cookie as no session and keeps serving", async () => {
    const { encode } = await distJwt()
    const good = await encode({ token: { name: "Intact", sub: "user-intact" }, secret: SECRET, salt: SESSION_COOKIE })
    const bad = tamper(good)
    expect(bad).not.toBe(good)

    const tampered = await sessionWithCookie(running(), bad)
    expect(tampered.res.status, running().output()).toBe(200)
    expect(tampered.body).toBeNull()
    expect(sessionCookiesSet(tampered.res), "no session cookie is issued for a tampered one").toEqual([])
    expect(sessionCookiesCleared(tampered.res).map((c) => c.name)).toEqual([SESSION_COOKIE])

    const after = await sessionWithCookie(running(), good)
    expect(after.body).toMatchObject({ user: { name: "Intact" } })
  })

  it("signs in with OpenID Connect at the local OP (login, consent, callback)", async () => {
    const b = browser()
    const { token } = await csrfToken(b)
    const result = await b.follow(formPost(`${BASE_PATH}/signin/op`, { csrfToken: token, callbackUrl: LANDING }))
    const trail = result.steps.map((s) => `${s.method} ${s.url} -> ${s.status}`).join("\n")
    expect(result.url, trail).toBe(LANDING)
    expect(result.status, trail).toBe(200)
    expect(result.steps.filter((s) => s.kind === "interaction").map((s) => s.form && "login" in s.form)).toEqual([
      true,
      false,
    ])
    const callback = result.steps.find((s) => s.url.startsWith(`${PUBLIC_ORIGIN}${BASE_PATH}/callback/op?`))
    expect(callback?.status, trail).toBe(302)
    expect(op?.tokenRequests.map((t) => t.status)).toEqual([200])

    const session = (await sessionOf(b)) as { user?: unknown }
    expect(session.user).toEqual({ name: OLIVIA.name, email: OLIVIA.email, image: OLIVIA.picture })
  })

  return {
    app: running,
    browser,
    async signedIn() {
      const b = browser()
      const res = await credentialsSignIn(b)
      expect(res.status, running().output()).toBe(302)
      return b
    },
  }
}
