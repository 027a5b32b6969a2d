// gatehouse/sveltekit and gatehouse/solid-start off Node.js: test/runtimes/apps/frameworks.ts, a fetch handler that
// calls SvelteKit's `handle` (and a page's locals.auth()) and SolidStart's SolidAuth GET / POST (and getSession), is
// bundled once per runtime with that runtime's conditions and served by workerd (miniflare, no nodejs_compat) and the
// Edge runtime on 127.0.0.1. SvelteKit's virtual modules are test/runtimes/apps/kit-modules.ts, which reads the
// Worker's bindings as @sveltejs/adapter-cloudflare provides them; @sveltejs/kit is the installed package.
// In each runtime: GET /providers, a credentials sign-in through each front door (SvelteKit without a CSRF token, as
// it leaves CSRF to its origin check; SolidStart with the token pair), a session read by the framework's own call, and
// a wrong password that sets no cookie.
import { builtinModules } from "node:module"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { EdgeRuntime, runServer } from "edge-runtime"
import { build, type Plugin } from "esbuild"
import { Miniflare } from "miniflare"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ensureDist } from "../support/dist.js"
import { USER } from "./apps/fixture.js"

const ROOT = fileURLToPath(new URL("../../", import.meta.url))
/** The Worker's bindings (the Edge runtime's RUNTIME_ENV): what `$env/dynamic/private` holds in the SvelteKit app. */
const ENV = {
  AUTH_SECRET: "frameworks-runtime-tests-secret-of-32-plus-characters",
  AUTH_TRUST_HOST: "true",
}
const SESSION_COOKIE = "authjs.session-token"
const NODE_BUILTIN = new RegExp(
  `^(?:node:.*|(?:${builtinModules.map((m) => m.replace(/\//g, "\\/")).join("|")})(?:/.*)?)$`,
)

/** `$env/dynamic/private`, `$app/paths`, `$app/environment` → the stand-in module (as vite's kit plugin resolves them). */
const kitModules: Plugin = {
  name: "sveltekit-virtual-modules",
  setup(b) {
    b.onResolve({ filter: /^\$(env\/dynamic\/private|app\/paths|app\/environment)$/ }, () => ({
      path: join(ROOT, "test/runtimes/apps/kit-modules.ts"),
    }))
  },
}

interface Bundle {
  code: string
  inputs: string[]
  /** Every import the bundle's inputs make that names a Node.js built-in. */
  builtins: string[]
}

async function bundle(conditions: string[], format: "esm" | "iife"): Promise<Bundle> {
  const app = "./test/runtimes/apps/frameworks.ts"
  // The Edge runtime runs a script with fetch events; workerd an ES module whose default export has fetch().
  const contents =
    format === "esm"
      ? `export { default } from "${app}"\n`
      : `import app from "${app}"\naddEventListener("fetch", (event) => event.respondWith(app.fetch(event.request, globalThis.RUNTIME_ENV)))\n`
  const result = await build({
    stdin: { contents, resolveDir: ROOT, sourcefile: "worker.js", loader: "js" },
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    format,
    // Neutral: a node:* import anywhere fails the build, as it would for a Worker without nodejs_compat.
    platform: "neutral",
    mainFields: ["module", "main"],
    // "svelte": the condition vite-plugin-svelte adds, under which package.json exports gatehouse/sveltekit.
    conditions: [...conditions, "svelte"],
    target: "es2022",
    metafile: true,
    logLevel: "silent",
    plugins: [kitModules],
    tsconfigRaw: {},
  })
  const inputs = result.metafile.inputs
  return {
    code: result.outputFiles[0]?.text ?? "",
    inputs: Object.keys(inputs),
    builtins: Object.values(inputs).flatMap((input) =>
      input.imports.filter((i) => NODE_BUILTIN.test(i.path)).map((i) => i.path),
    ),
  }
}

interface Served {
  origin: string
  stop(): Promise<void>
}

const RUNTIMES = [
  {
    name: "workerd",
    conditions: ["workerd", "worker", "browser"],
    async start(code: string): Promise<Served> {
      const mf = new Miniflare({
        modules: true,
        script: code,
        compatibilityDate: "2026-04-01",
        bindings: { ...ENV },
        host: "127.0.0.1",
        port: 0,
      })
      const url = await mf.ready
      return { origin: url.origin, stop: () => mf.dispose() }
    },
    format: "esm" as const,
  },
  {
    name: "Edge runtime",
    conditions: ["edge-light", "worker", "browser"],
    async start(code: string): Promise<Served> {
      const runtime = new EdgeRuntime({ initialCode: `globalThis.RUNTIME_ENV = ${JSON.stringify(ENV)};\n${code}` })
      const server = await runServer({ runtime, port: 0, host: "127.0.0.1" })
      return { origin: new URL(server.url).origin, stop: () => server.close() }
    },
    format: "iife" as const,
  },
]

/** name=value of each Set-Cookie, the Cookie header a browser would send back. */
function cookiesOf(response: Response): Map<string, string> {
  const jar = new Map<string, string>()
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(";")[0] ?? ""
    const eq = pair.indexOf("=")
    jar.set(pair.slice(0, eq), pair.slice(eq + 1))
  }
  return jar
}

const cookieHeader = (jar: Map<string, string>): string => [...jar].map(([n, v]) => `${n}=${v}`).join("; ")

describe.each(RUNTIMES)("SvelteKit and SolidStart front doors in $name", ({ conditions, format, start }) => {
  let built: Bundle
  let served: Served | undefined
  const url = (path: string): string => `${served?.origin}${path}`
  const post = (path: string, fields: Record<string, string>, jar = new Map<string, string>()): Promise<Response> =>
    fetch(url(path), {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: served?.origin ?? "",
        cookie: cookieHeader(jar),
      },
      body: new URLSearchParams(fields),
    })
  const sessionAt = async (path: string, jar: Map<string, string>): Promise<unknown> => {
    const res = await fetch(url(path), { headers: { cookie: cookieHeader(jar) } })
    expect(res.status).toBe(200)
    return ((await res.json()) as { session: unknown }).session
  }

  beforeAll(async () => {
    await ensureDist()
    built = await bundle(conditions, format)
    served = await start(built.code)
  }, 240_000)
  afterAll(() => served?.stop())

  it("bundles both front doors and @sveltejs/kit without a Node.js built-in, on the Web Crypto backend", () => {
    expect(built.inputs).toContain("dist/integrations/sveltekit/index.js")
    expect(built.inputs).toContain("dist/integrations/solid-start.js")
    expect(built.inputs.some((input) => input.startsWith("node_modules/@sveltejs/kit/"))).toBe(true)
    expect(built.inputs).toContain("dist/crypto/web.js")
    expect(built.inputs).not.toContain("dist/crypto/node.js")
    expect(built.builtins).toEqual([])
    expect(built.code).not.toMatch(/\bfrom\s*["']node:|\bimport\(\s*["']node:|\brequire\(\s*["']node:/)
  })

  it("SvelteKit: handle answers /auth/*, a credentials sign-in without a CSRF token, locals.auth() has the user", async () => {
    const providers = await fetch(url("/auth/providers"))
    expect(providers.status).toBe(200)
    expect(await providers.json()).toMatchObject({
      credentials: {
        id: "credentials",
        type: "credentials",
        callbackUrl: `${served?.origin}/auth/callback/credentials`,
      },
    })

    expect(await sessionAt("/kit/session", new Map())).toBeNull()
    const signIn = await post("/auth/callback/credentials", {
      username: USER.username,
      password: USER.password,
      callbackUrl: url("/dashboard"),
    })
    expect(signIn.status).toBe(302)
    expect(signIn.headers.get("location")).toBe(url("/dashboard"))
    const jar = cookiesOf(signIn)
    expect(jar.get(SESSION_COOKIE)).toMatch(/^[\w-]+\.[\w-]*\.[\w-]+\.[\w-]+\.[\w-]+$/)
    expect(signIn.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`))).toMatch(
      /; Path=\/.*; HttpOnly.*; SameSite=Lax/,
    )
    expect(await sessionAt("/kit/session", jar)).toMatchObject({ user: { name: USER.name, email: USER.email } })

    const wrong = await post("/auth/callback/credentials", { username: USER.username, password: "wrong-password" })
    expect(wrong.status).toBe(302)
    expect(wrong.headers.get("location")).toMatch(/error=CredentialsSignin/)
    expect(cookiesOf(wrong).has(SESSION_COOKIE)).toBe(false)
  })

  it("SolidStart: SolidAuth GET / POST with the CSRF token pair, getSession has the user", async () => {
    const providers = await fetch(url("/api/auth/providers"))
    expect(providers.status).toBe(200)
    expect(await providers.json()).toMatchObject({
      credentials: { id: "credentials", callbackUrl: `${served?.origin}/api/auth/callback/credentials` },
    })

    const csrf = await fetch(url("/api/auth/csrf"))
    expect(csrf.status).toBe(200)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const jar = cookiesOf(csrf)
    expect(jar.has("authjs.csrf-token")).toBe(true)

    // Without the token pair the POST is refused and signs nobody in.
    const forged = await post("/api/auth/callback/credentials", { username: USER.username, password: USER.password })
    expect(forged.headers.get("location")).toMatch(/error=MissingCSRF/)
    expect(cookiesOf(forged).has(SESSION_COOKIE)).toBe(false)

    expect(await sessionAt("/solid/session", jar)).toBeNull()
    const fields = { csrfToken, username: USER.username, callbackUrl: url("/dashboard") }
    const signIn = await post("/api/auth/callback/credentials", { ...fields, password: USER.password }, jar)
    expect(signIn.status).toBe(302)
    expect(signIn.headers.get("location")).toBe(url("/dashboard"))
    const session = cookiesOf(signIn).get(SESSION_COOKIE)
    expect(session).toBeTruthy()
    jar.set(SESSION_COOKIE, session ?? "")
    expect(await sessionAt("/solid/session", jar)).toMatchObject({ user: { name: USER.name, email: USER.email } })

    const wrong = await post("/api/auth/callback/credentials", { ...fields, password: "wrong-password" }, jar)
    expect(wrong.status).toBe(302)
    expect(wrong.headers.get("location")).toMatch(/error=CredentialsSignin/)
    expect(cookiesOf(wrong).has(SESSION_COOKIE)).toBe(false)
  })
})
