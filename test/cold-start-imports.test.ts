// What a cold start loads. The OAuth client (oauth4webapi) and the OAuth flows load on a provider's first sign-in or
// token refresh, not with the library: an app that signs in with credentials pays neither at start-up (about 6 ms of a
// ~160 ms cold start, docs/performance.md). A child process imports the built package under a module hook that records
// every module it loads, as `node` would for the app.
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ensureDist } from "./support/dist.js"

const ROOT = fileURLToPath(new URL("../", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "gatehouse-cold-"))

// The hook runs on the loader thread; it sends each URL it loads back over the port `register` gave it.
const HOOK = `
let port
export function initialize(data) { port = data.port }
export async function load(url, context, next) { port.postMessage(url); return next(url, context) }
`
const CHILD = `
import { register } from "node:module"
import { MessageChannel } from "node:worker_threads"
const loaded = []
const { port1, port2 } = new MessageChannel()
port1.on("message", (url) => loaded.push(url))
port1.unref()
register(${JSON.stringify(pathToFileURL(join(dir, "hook.mjs")).href)}, { data: { port: port2 }, transferList: [port2] })
const settle = () => new Promise((r) => setTimeout(r, 50))
const dist = ${JSON.stringify(pathToFileURL(join(ROOT, "dist/")).href)}
const { Auth } = await import(dist + "index.js")
const { default: Credentials } = await import(dist + "providers/credentials.js")
const { default: GitHub } = await import(dist + "providers/github.js")
const config = {
  secret: "k3Q9vZ2mT8rW5yB1nH6pL4xC7fD0sJaE",
  trustHost: true,
  basePath: "/auth",
  providers: [Credentials({ authorize: async () => ({ id: "1", email: "a@example.com" }) }), GitHub({ clientId: "id", clientSecret: "secret" })],
}
const ORIGIN = "http://localhost:3000"
const session = await Auth(new Request(ORIGIN + "/auth/session"), config)
const csrf = await Auth(new Request(ORIGIN + "/auth/csrf"), config)
const { csrfToken } = await csrf.json()
const cookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ")
await settle()
const beforeSignIn = [...loaded]
const signIn = await Auth(new Request(ORIGIN + "/auth/signin/github", {
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", cookie },
  body: new URLSearchParams({ csrfToken }),
}), config)
await settle()
process.stdout.write(JSON.stringify({
  session: { status: session.status, body: await session.text() },
  signIn: { status: signIn.status, location: signIn.headers.get("location") },
  beforeSignIn,
  afterSignIn: [...loaded],
}))
`

interface ChildReport {
  session: { status: number; body: string }
  signIn: { status: number; location: string | null }
  beforeSignIn: string[]
  afterSignIn: string[]
}
let report: ChildReport

beforeAll(async () => {
  await ensureDist()
  writeFileSync(join(dir, "hook.mjs"), HOOK)
  writeFileSync(join(dir, "child.mjs"), CHILD)
  const { stdout } = await promisify(execFile)(process.execPath, [join(dir, "child.mjs")], { cwd: ROOT })
  report = JSON.parse(stdout) as ChildReport
}, 120_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const oauthModules = (urls: string[]) =>
  urls.filter((url) => /\/oauth4webapi\/|\/dist\/(?:protocols\/oauth[12]|flows\/oauth1?)\.js$/.test(url))

describe("cold start: what importing the package and the first requests load", () => {
  it("answers the first /auth/session without loading the OAuth client or the OAuth flows", () => {
    expect(report.session).toEqual({ status: 200, body: "null" })
    // The hook saw the package itself, so an empty list below means "not loaded", not "not recorded".
    expect(report.beforeSignIn.some((url) => url.endsWith("/dist/index.js"))).toBe(true)
    expect(report.beforeSignIn.some((url) => url.endsWith("/dist/security/check-cookies.js"))).toBe(true)
    expect(oauthModules(report.beforeSignIn)).toEqual([])
  })

  it("loads them on the first OAuth sign-in, which redirects to the provider with PKCE and state", () => {
    expect(report.signIn.status).toBe(302)
    const location = new URL(report.signIn.location ?? "")
    expect(location.origin + location.pathname).toBe("https://github.com/login/oauth/authorize")
    // Check values: 32 random bytes, base64url; the S256 challenge of a 43-character verifier is 43 characters too.
    expect(location.searchParams.get("code_challenge_method")).toBe("S256")
    expect(location.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/)
    const loadedNow = oauthModules(report.afterSignIn).map((url) => url.replace(/^.*\/(?=oauth4webapi\/|dist\/)/, ""))
    expect(loadedNow).toEqual(
      expect.arrayContaining(["oauth4webapi/build/index.js", "dist/flows/oauth.js", "dist/protocols/oauth2.js"]),
    )
  })
})
