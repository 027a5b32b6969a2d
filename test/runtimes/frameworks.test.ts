// gatehouse/sveltekit, gatehouse/solid-start and gatehouse/qwik off Node.js, in workerd (miniflare, no compatibility
// flags) and the Edge runtime on 127.0.0.1. Two apps, each bundled once per runtime with that runtime's conditions:
// - test/runtimes/apps/frameworks.ts: a fetch handler calling SvelteKit's `handle` (and a page's locals.auth()) and
//   SolidStart's SolidAuth GET / POST (and getSession). SvelteKit's virtual modules are apps/kit-modules.ts, holding
//   the Worker's bindings as @sveltejs/adapter-cloudflare provides them; @sveltejs/kit is the installed package.
// - test/runtimes/apps/qwik-city.ts: gatehouse/qwik's plugin inside Qwik City's own request handler, served by its
//   Cloudflare Pages adapter (workerd) and its Vercel Edge adapter (Edge runtime).
// Each front door: GET /providers, a credentials sign-in (SvelteKit without a CSRF token, as it leaves CSRF to its
// origin check; SolidStart and Qwik with the token pair, refused without it), the session as the framework's own call
// reads it, and a wrong password that sets no session cookie.
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
/** The Worker's bindings (the Edge runtime's RUNTIME_ENV): what `$env/dynamic/private` and Qwik's `env` hold. */
const ENV = {
  AUTH_SECRET: "frameworks-runtime-tests-secret-of-32-plus-characters",
  AUTH_TRUST_HOST: "true",
}
const SESSION_COOKIE = "authjs.session-token"
const NODE_BUILTIN = new RegExp(
  `^(?:node:.*|(?:${builtinModules.map((m) => m.replace(/\//g, "\\/")).join("|")})(?:/.*)?)$`,
)
/**
 * Qwik City's request handler imports node:async_hooks itself (for AsyncLocalStorage, with a catch that goes on without
 * it): left out of the bundle, it fails to load in both runtimes and Qwik City warns. Nothing of Gatehouse's does.
 */
const QWIK_CITY_ALS = "node_modules/@builder.io/qwik-city/lib/middleware/request-handler/index.mjs → node:async_hooks"

/** Vite's generated modules → the stand-ins (SvelteKit's `$env`/`$app`, Qwik City's and Qwik's `@qwik-*`). */
const virtualModules: Plugin = {
  name: "framework-virtual-modules",
  setup(b) {
    b.onResolve({ filter: /^\$(env\/dynamic\/private|app\/paths|app\/environment)$/ }, () => ({
      path: join(ROOT, "test/runtimes/apps/kit-modules.ts"),
    }))
    b.onResolve(
      { filter: /^@(qwik-city-(not-found-paths|static-paths|plan|sw-register)|qwik-client-manifest)$/ },
      () => ({
        path: join(ROOT, "test/runtimes/apps/qwik-city-virtual.ts"),
      }),
    )
  },
}

interface Bundle {
  code: string
  inputs: string[]
  /** `importer → builtin` for each import of a Node.js built-in in the bundle's inputs. */
  builtins: string[]
}

type Format = "esm" | "iife"

async function bundle(contents: string, conditions: string[], format: Format): Promise<Bundle> {
  const result = await build({
    stdin: { contents, resolveDir: ROOT, sourcefile: "worker.js", loader: "js" },
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    format,
    // Neutral: a node:* import fails the build unless it is named external (Qwik City's one, below).
    platform: "neutral",
    mainFields: ["module", "main"],
    // "svelte": the condition vite-plugin-svelte adds, under which package.json exports gatehouse/sveltekit.
    conditions: [...conditions, "svelte"],
    target: "es2022",
    metafile: true,
    logLevel: "silent",
    plugins: [virtualModules],
    external: ["node:async_hooks"],
    tsconfigRaw: {},
  })
  const inputs = result.metafile.inputs
  return {
    code: result.outputFiles[0]?.text ?? "",
    inputs: Object.keys(inputs),
    builtins: Object.entries(inputs).flatMap(([file, input]) =>
      input.imports.filter((i) => NODE_BUILTIN.test(i.path)).map((i) => `${file} → ${i.path}`),
    ),
  }
}

/** The worker's entry: workerd takes an ES module whose default export has fetch(), the Edge runtime fetch events. */
function entry(app: "frameworks" | "qwik", format: Format, qwikAdapter: string): string {
  const handler =
    app === "frameworks"
      ? `import app from "./test/runtimes/apps/frameworks.ts"\nconst fetchApp = (request) => app.fetch(request, globalThis.RUNTIME_ENV)\n`
      : `import { createQwikCity } from "@builder.io/qwik-city/middleware/${qwikAdapter}"\nimport { qwikCityPlan, render } from "./test/runtimes/apps/qwik-city.ts"\nconst fetchApp = createQwikCity({ render, qwikCityPlan })\n`
  if (format === "esm")
    return app === "frameworks"
      ? `export { default } from "./test/runtimes/apps/frameworks.ts"\n`
      : `${handler}export default { fetch: fetchApp }\n`
  return `${handler}addEventListener("fetch", (event) => event.respondWith(fetchApp(event.request)))\n`
}

interface Served {
  origin: string
  stop(): Promise<void>
}

const RUNTIMES = [
  {
    name: "workerd",
    conditions: ["workerd", "worker", "browser"],
    format: "esm" as Format,
    qwikAdapter: "cloudflare-pages",
    async start(code: string): Promise<Served> {
      const mf = new Miniflare({
        // Listed, not `script`: Qwik's core holds an `import(url)` miniflare's module scan refuses in a string script.
        modules: [{ type: "ESModule", path: "worker.mjs", contents: code }],
        compatibilityDate: "2026-04-01",
        bindings: { ...ENV },
        host: "127.0.0.1",
        port: 0,
      })
      const url = await mf.ready
      return { origin: url.origin, stop: () => mf.dispose() }
    },
  },
  {
    name: "Edge runtime",
    conditions: ["edge-light", "worker", "browser"],
    format: "iife" as Format,
    qwikAdapter: "vercel-edge",
    async start(code: string, app: "frameworks" | "qwik"): Promise<Served> {
      // Qwik's Vercel Edge adapter reads process.env, which Vercel's Edge functions have; the other app runs without.
      const globals = `globalThis.RUNTIME_ENV = ${JSON.stringify(ENV)};\n${app === "qwik" ? "globalThis.process = { env: globalThis.RUNTIME_ENV };\n" : ""}`
      const runtime = new EdgeRuntime({ initialCode: `${globals}${code}` })
      const server = await runServer({ runtime, port: 0, host: "127.0.0.1" })
      return { origin: new URL(server.url).origin, stop: () => server.close() }
    },
  },
]

/** name=value of each Set-Cookie. */
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

/** A running app and the requests a browser would make to it. */
function client(origin: () => string) {
  const url = (path: string): string => `${origin()}${path}`
  const post = (path: string, fields: Record<string, string>, jar = new Map<string, string>()): Promise<Response> =>
    fetch(url(path), {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: origin(), cookie: cookieHeader(jar) },
      body: new URLSearchParams(fields),
    })
  const sessionAt = async (path: string, jar: Map<string, string>): Promise<unknown> => {
    const res = await fetch(url(path), { headers: { cookie: cookieHeader(jar) } })
    expect(res.status).toBe(200)
    return ((await res.json()) as { session: unknown }).session
  }
  return { url, post, sessionAt }
}

/** /providers lists the credentials provider with its callback URL under `basePath`. */
async function expectProviders(c: ReturnType<typeof client>, basePath: string): Promise<void> {
  const providers = await fetch(c.url(`${basePath}/providers`))
  expect(providers.status).toBe(200)
  expect(await providers.json()).toMatchObject({
    credentials: { id: "credentials", type: "credentials", callbackUrl: c.url(`${basePath}/callback/credentials`) },
  })
}

/** The CSRF token pair, a POST without it refused, the sign-in with it, the session read, a wrong password refused. */
async function signInWithCsrf(c: ReturnType<typeof client>, basePath: string, sessionPath: string): Promise<void> {
  const csrf = await fetch(c.url(`${basePath}/csrf`))
  expect(csrf.status).toBe(200)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const jar = cookiesOf(csrf)
  expect(jar.has("authjs.csrf-token")).toBe(true)
  const callback = `${basePath}/callback/credentials`

  const forged = await c.post(callback, { username: USER.username, password: USER.password })
  expect(forged.headers.get("location")).toMatch(/error=MissingCSRF/)
  expect(cookiesOf(forged).has(SESSION_COOKIE)).toBe(false)

  expect(await c.sessionAt(sessionPath, jar)).toBeNull()
  const fields = { csrfToken, username: USER.username, callbackUrl: c.url("/dashboard") }
  const signIn = await c.post(callback, { ...fields, password: USER.password }, jar)
  expect(signIn.status).toBe(302)
  expect(signIn.headers.get("location")).toBe(c.url("/dashboard"))
  const session = cookiesOf(signIn).get(SESSION_COOKIE)
  expect(session).toMatch(/^[\w-]+\.[\w-]*\.[\w-]+\.[\w-]+\.[\w-]+$/)
  jar.set(SESSION_COOKIE, session ?? "")
  expect(await c.sessionAt(sessionPath, jar)).toMatchObject({ user: { name: USER.name, email: USER.email } })

  const wrong = await c.post(callback, { ...fields, password: "wrong-password" }, jar)
  expect(wrong.status).toBe(302)
  expect(wrong.headers.get("location")).toMatch(/error=CredentialsSignin/)
  expect(cookiesOf(wrong).has(SESSION_COOKIE)).toBe(false)
}

describe.each(RUNTIMES)("framework front doors in $name", ({ conditions, format, qwikAdapter, start }) => {
  const built: Partial<Record<"frameworks" | "qwik", Bundle>> = {}
  const served: Partial<Record<"frameworks" | "qwik", Served>> = {}
  const kit = client(() => served.frameworks?.origin ?? "")
  const qwik = client(() => served.qwik?.origin ?? "")

  beforeAll(async () => {
    await ensureDist()
    for (const app of ["frameworks", "qwik"] as const) {
      const bundled = await bundle(entry(app, format, qwikAdapter), conditions, format)
      built[app] = bundled
      served[app] = await start(bundled.code, app)
    }
  }, 240_000)
  afterAll(async () => {
    await Promise.all(Object.values(served).map((s) => s.stop()))
  })

  it("bundles the front doors, @sveltejs/kit and Qwik City without a Node.js built-in of Gatehouse's", () => {
    const { frameworks, qwik: qwikBundle } = built
    expect(frameworks?.inputs).toEqual(
      expect.arrayContaining(["dist/integrations/sveltekit/index.js", "dist/integrations/solid-start.js"]),
    )
    expect(frameworks?.inputs.some((input) => input.startsWith("node_modules/@sveltejs/kit/"))).toBe(true)
    expect(qwikBundle?.inputs).toEqual(
      expect.arrayContaining(["dist/integrations/qwik/index.js", "dist/integrations/qwik/handlers.js"]),
    )
    for (const bundled of [frameworks, qwikBundle]) {
      expect(bundled?.inputs).toContain("dist/crypto/web.js")
      expect(bundled?.inputs).not.toContain("dist/crypto/node.js")
    }
    expect(frameworks?.builtins).toEqual([])
    expect(qwikBundle?.builtins).toEqual([QWIK_CITY_ALS])
  })

  it("SvelteKit: handle answers /auth/*, a credentials sign-in without a CSRF token, locals.auth() has the user", async () => {
    await expectProviders(kit, "/auth")
    expect(await kit.sessionAt("/kit/session", new Map())).toBeNull()
    const fields = { username: USER.username, callbackUrl: kit.url("/dashboard") }
    const signIn = await kit.post("/auth/callback/credentials", { ...fields, password: USER.password })
    expect(signIn.status).toBe(302)
    expect(signIn.headers.get("location")).toBe(kit.url("/dashboard"))
    const jar = cookiesOf(signIn)
    expect(jar.get(SESSION_COOKIE)).toMatch(/^[\w-]+\.[\w-]*\.[\w-]+\.[\w-]+\.[\w-]+$/)
    expect(signIn.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`))).toMatch(
      /; Path=\/.*; HttpOnly.*; SameSite=Lax/,
    )
    expect(await kit.sessionAt("/kit/session", jar)).toMatchObject({ user: { name: USER.name, email: USER.email } })

    const wrong = await kit.post("/auth/callback/credentials", { ...fields, password: "wrong-password" })
    expect(wrong.status).toBe(302)
    expect(wrong.headers.get("location")).toMatch(/error=CredentialsSignin/)
    expect(cookiesOf(wrong).has(SESSION_COOKIE)).toBe(false)
  })

  it("SolidStart: SolidAuth GET / POST with the CSRF token pair, getSession has the user", async () => {
    await expectProviders(kit, "/api/auth")
    await signInWithCsrf(kit, "/api/auth", "/solid/session")
  })

  it("Qwik: the plugin's onRequest in Qwik City's handler, with the CSRF token pair; the session in sharedMap", async () => {
    await expectProviders(qwik, "/auth")
    await signInWithCsrf(qwik, "/auth", "/qwik/session")
  })
})
