// gatehouse/next without a Next server: the route handlers with web Requests, auth(request) as middleware/proxy with
// callbacks.authorized, auth(handler), the pages-router read over real node:http, env defaults, and a module graph
// with no Node.js built-in (what Next's Edge runtime bundles). next/headers paths (auth(), signIn, signOut,
// unstable_update) need a running Next app: test/integrations/next-app.test.ts covers them.
import { createServer } from "node:http"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import { NextRequest } from "next/server.js"
import { describe, expect, it } from "vitest"
import NextAuth, { type NextAuthConfig } from "../../src/integrations/next.js"
import Credentials from "../../src/providers/credentials.js"
import { alice, SECRET } from "../support/flow-kit.js"
import { CookieJar, sessionCookieNames } from "../support/cookies.js"
import { withEnv } from "../support/env.js"
import { listenLocal } from "../support/listen.js"

const ORIGIN = "http://localhost:3000"

function nextConfig(overrides: Partial<NextAuthConfig> = {}): NextAuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: (c) => (c.username === "alice" && c.password === "password" ? { ...alice } : null),
      }),
    ],
    ...overrides,
  }
}

function request(
  path: string,
  init: { cookie?: string; method?: string; form?: Record<string, string> } = {},
): NextRequest {
  const headers = new Headers()
  if (init.cookie) headers.set("cookie", init.cookie)
  if (init.form) headers.set("content-type", "application/x-www-form-urlencoded")
  return new NextRequest(`${ORIGIN}${path}`, {
    method: init.method ?? (init.form ? "POST" : "GET"),
    headers,
    ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
  })
}

/** A credentials sign-in through the handlers; the jar then holds the session cookie. */
async function signInThroughHandlers(
  handlers: ReturnType<typeof NextAuth>["handlers"],
  basePath = "/api/auth",
): Promise<CookieJar> {
  const jar = new CookieJar()
  const csrf = await handlers.GET(request(`${basePath}/csrf`))
  jar.store(csrf)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const res = await handlers.POST(
    request(`${basePath}/callback/credentials`, {
      cookie: jar.header(),
      form: { csrfToken, username: "alice", password: "password", callbackUrl: `${ORIGIN}/dashboard` },
    }),
  )
  expect(res.status).toBe(302)
  expect(res.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
  jar.store(res)
  return jar
}

describe("handlers", () => {
  it("answer the auth endpoints under /api/auth by default: CSRF, credentials sign-in, session", async () => {
    const { handlers } = NextAuth(nextConfig())
    const jar = await signInThroughHandlers(handlers)
    const session = await handlers.GET(request("/api/auth/session", { cookie: jar.header() }))
    expect(session.status).toBe(200)
    expect(await session.json()).toMatchObject({ user: { name: alice.name, email: alice.email } })
  })

  it("take AUTH_SECRET when the config has no secret, and AUTH_URL's path as basePath, without changing the config", async () => {
    await withEnv({ AUTH_SECRET: SECRET, AUTH_URL: `${ORIGIN}/custom/auth` }, async () => {
      const config = nextConfig({ secret: undefined, trustHost: undefined })
      const before = { ...config }
      const { handlers } = NextAuth(config)
      const jar = await signInThroughHandlers(handlers, "/custom/auth")
      const session = await handlers.GET(request("/custom/auth/session", { cookie: jar.header() }))
      expect(await session.json()).toMatchObject({ user: { name: alice.name } })
      expect(config).toEqual(before)
      expect("basePath" in config).toBe(false)
    })
  })

  it("read next-auth v4's NEXTAUTH_URL and NEXTAUTH_SECRET when AUTH_URL and AUTH_SECRET are unset, as next-auth v5 does", async () => {
    await withEnv({ NEXTAUTH_SECRET: SECRET, NEXTAUTH_URL: "https://app.example.test/v4/auth" }, async () => {
      const { handlers } = NextAuth(nextConfig({ secret: undefined, trustHost: undefined }))
      // The request arrives at another host: every URL still comes from NEXTAUTH_URL, and its path is the basePath.
      const res = await handlers.GET(request("/v4/auth/signin"))
      expect(res.status).toBe(200)
      const page = await handlers.GET(request("/v4/auth/signout"))
      expect(await page.text()).toContain('action="https://app.example.test/v4/auth/signout"')
      expect((await handlers.GET(request("/api/auth/session"))).status).toBe(400)
    })
  })

  it("call a config function with the request, once per request", async () => {
    const seen: (string | undefined)[] = []
    const config = nextConfig()
    const { handlers } = NextAuth((req) => {
      seen.push(req?.nextUrl.pathname)
      return config
    })
    const res = await handlers.GET(request("/api/auth/providers"))
    expect(await res.json()).toMatchObject({ credentials: { id: "credentials", type: "credentials" } })
    await handlers.GET(request("/api/auth/csrf"))
    expect(seen).toEqual(["/api/auth/providers", "/api/auth/csrf"])
  })

  it("answer a broken config with the configuration error, not a crash", async () => {
    const { handlers } = NextAuth(nextConfig({ secret: "short", logger: { error: () => {} } }))
    const res = await handlers.GET(request("/api/auth/session"))
    expect(res.status).toBe(500)
  })
})

describe("auth(request) as middleware/proxy", () => {
  const protectedConfig = (): NextAuthConfig => nextConfig({ callbacks: { authorized: ({ auth }) => auth !== null } })

  it("redirects a signed-out request to the sign-in page with the page it wanted as callbackUrl", async () => {
    const { auth } = NextAuth(protectedConfig())
    const res = await auth(request("/dashboard?tab=2"))
    expect(res.status).toBe(307)
    const location = new URL(res.headers.get("location")!)
    expect(location.origin + location.pathname).toBe(`${ORIGIN}/api/auth/signin`)
    expect(location.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/dashboard?tab=2`)
  })

  it("lets a signed-in request through (NextResponse.next())", async () => {
    const { auth, handlers } = NextAuth(protectedConfig())
    const jar = await signInThroughHandlers(handlers)
    const res = await auth(request("/dashboard", { cookie: jar.header() }))
    expect(res.status).toBe(200)
    expect(res.headers.get("x-middleware-next")).toBe("1")
  })

  it("redirects to pages.signIn, but never the sign-in page to itself", async () => {
    const { auth } = NextAuth(
      nextConfig({ pages: { signIn: "/login" }, callbacks: { authorized: ({ auth }) => !!auth } }),
    )
    const away = await auth(request("/dashboard"))
    expect(new URL(away.headers.get("location")!).pathname).toBe("/login")
    const onPage = await auth(request("/login"))
    expect(onPage.headers.get("x-middleware-next")).toBe("1")
    expect(onPage.headers.get("location")).toBeNull()
  })

  it("treats an undefined verdict as not authorized and no callback as authorized, as next-auth does", async () => {
    const undecided = NextAuth(nextConfig({ callbacks: { authorized: () => undefined } }))
    expect((await undecided.auth(request("/x"))).status).toBe(307)
    const open = NextAuth(nextConfig())
    expect((await open.auth(request("/x"))).headers.get("x-middleware-next")).toBe("1")
  })

  it("answers with the Response the authorized callback returns", async () => {
    const { auth } = NextAuth(
      nextConfig({ callbacks: { authorized: () => Response.json({ denied: true }, { status: 403 }) } }),
    )
    const res = await auth(request("/api/data"))
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual({ denied: true })
  })

  it("passes the session and the request to the authorized callback", async () => {
    const calls: { name: string | null | undefined; path: string }[] = []
    const { auth, handlers } = NextAuth(
      nextConfig({
        callbacks: {
          authorized: ({ auth, request }) => {
            calls.push({ name: auth?.user?.name, path: request.nextUrl.pathname })
            return true
          },
        },
      }),
    )
    const jar = await signInThroughHandlers(handlers)
    await auth(request("/a"))
    await auth(request("/b", { cookie: jar.header() }))
    expect(calls).toEqual([
      { name: undefined, path: "/a" },
      { name: alice.name, path: "/b" },
    ])
  })

  it("forwards a re-issued session cookie, also on an answer with immutable headers (Response.redirect)", async () => {
    const config = nextConfig({
      session: { updateAge: 0 },
      callbacks: { authorized: ({ auth }) => (auth ? Response.redirect(`${ORIGIN}/elsewhere`, 302) : false) },
    })
    const { auth, handlers } = NextAuth(config)
    const jar = await signInThroughHandlers(handlers)
    const res = await auth(request("/dashboard", { cookie: jar.header() }))
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/elsewhere`)
    expect(sessionCookieNames(res)).toEqual(["authjs.session-token"])
  })

  it("sets no cookie for a signed-out request", async () => {
    const { auth } = NextAuth(protectedConfig())
    expect((await auth(request("/dashboard"))).headers.getSetCookie()).toEqual([])
  })

  it("answers 400 to a request whose X-Forwarded-Host is not a host (trustHost), as the handlers do", async () => {
    const { auth } = NextAuth(protectedConfig())
    const res = await auth(
      new NextRequest(`${ORIGIN}/dashboard`, {
        headers: { "x-forwarded-host": "evil.example/path", cookie: "authjs.session-token=x" },
      }),
    )
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: "InvalidRequest" })
  })

  it("rejects with the configuration error (naming the fix) for a broken config", async () => {
    const { auth } = NextAuth(nextConfig({ secret: "tiny-secret", logger: { error: () => {} } }))
    await expect(auth(request("/dashboard", { cookie: "authjs.session-token=x" }))).rejects.toThrow(/use at least 32/)
  })
})

describe("auth(handler)", () => {
  it("gives a wrapped route handler the session as req.auth and returns its answer", async () => {
    const { auth, handlers } = NextAuth(nextConfig())
    const GET = auth((req, ctx: { params: Promise<{ id: string }> }) =>
      ctx.params.then(({ id }) => Response.json({ id, name: req.auth?.user?.name ?? null })),
    )
    const jar = await signInThroughHandlers(handlers)
    const signedIn = await GET(request("/api/items/7", { cookie: jar.header() }), {
      params: Promise.resolve({ id: "7" }),
    })
    expect(await signedIn.json()).toEqual({ id: "7", name: alice.name })
    const signedOut = await GET(request("/api/items/7"), { params: Promise.resolve({ id: "7" }) })
    expect(await signedOut.json()).toEqual({ id: "7", name: null })
  })

  it("continues (NextResponse.next()) when a wrapped middleware returns nothing, and runs it even when not authorized", async () => {
    const seen: (string | null)[] = []
    const { auth } = NextAuth(nextConfig({ callbacks: { authorized: () => false } }))
    const middleware = auth((req) => {
      seen.push(req.auth === null ? null : "session")
    })
    const res = await middleware(request("/anything"), {})
    expect(res.headers.get("x-middleware-next")).toBe("1")
    expect(seen).toEqual([null])
  })
})

describe("auth() in the pages router", () => {
  it("reads the session of a node request and adds a re-issued cookie to the response", async () => {
    const { auth, handlers } = NextAuth(nextConfig({ session: { updateAge: 0 } }))
    const jar = await signInThroughHandlers(handlers)
    const server = createServer((req, res) => {
      const read = req.url === "/ctx" ? auth({ req, res }) : auth(req, res)
      read.then(
        (session) => res.end(JSON.stringify(session?.user?.name ?? null)),
        () => res.writeHead(500).end(),
      )
    })
    const app = await listenLocal(server)
    try {
      for (const path of ["/api", "/ctx"]) {
        const res = await fetch(`${app.origin}${path}`, { headers: { cookie: jar.header() } })
        expect(await res.json()).toBe(alice.name)
        expect(sessionCookieNames(res)).toEqual(["authjs.session-token"])
      }
      const signedOut = await fetch(`${app.origin}/api`)
      expect(await signedOut.json()).toBeNull()
    } finally {
      await app.stop()
    }
  })
})

describe("Edge runtime", () => {
  it("gatehouse/next's whole module graph, with the Web Crypto backend Edge bundles get, imports no Node.js built-in and no optional peer", async () => {
    const entry = fileURLToPath(new URL("../../src/integrations/next.ts", import.meta.url))
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      format: "esm",
      splitting: true,
      outdir: "/tmp/gatehouse-next-graph",
      platform: "neutral",
      conditions: ["edge-light", "worker", "browser"],
      // What package.json "imports" gives an Edge bundle (the `edge-light` condition) for the crypto seam.
      alias: { "#crypto": fileURLToPath(new URL("../../src/crypto/web.ts", import.meta.url)) },
      metafile: true,
      external: ["next/*", "node:*"],
      logLevel: "silent",
    })
    const nodeImports = Object.entries(result.metafile.inputs).flatMap(([file, input]) =>
      input.imports.filter((imp) => imp.path.startsWith("node:")).map((imp) => `${file} imports ${imp.path}`),
    )
    expect(nodeImports).toEqual([])
    // Nor an optional peer: a bundler fails on one that is not installed (Next 15 builds Edge functions with webpack).
    // @simplewebauthn/server is named only by the WebAuthn provider module, which an app without passkeys never loads.
    expect(
      Object.keys(result.metafile.inputs).filter((k) => /node_modules\/(@simplewebauthn|nodemailer)\//.test(k)),
    ).toEqual([])
    // Dynamic imports are followed too: the core, loaded on first use, is in the graph.
    expect(Object.keys(result.metafile.inputs).some((k) => k.endsWith("src/integrations/next/core.ts"))).toBe(true)
  })
})
