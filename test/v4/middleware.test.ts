// gatehouse/v4/middleware's withAuth beside next-auth 4.24.15's own next-auth/middleware, on the same NextRequests:
// the 307 to the sign-in page with a relative callbackUrl (Next's basePath included), the paths it never guards, the
// authorized callback, custom pages and cookie name, the wrapped middleware's req.nextauth.token, and the error page
// when there is no secret.
import { createRequire } from "node:module"
import { NextRequest } from "next/server.js"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import withAuth, { type NextRequestWithAuth } from "../../src/integrations/next-v4/middleware.js"
import type { JWTDecodeParams } from "../../src/integrations/next-v4/jwt.js"
import { isolateEnv } from "../support/env.js"
import { nextAuthV4Jwt } from "../support/next-auth-v4.js"
import { V4_SECRET } from "./kit.js"

const theirs = createRequire(import.meta.url)("next-auth/middleware") as { withAuth: (...args: any[]) => any }
const v4 = nextAuthV4Jwt()
const CLAIMS = { sub: "user-1", name: "Alice", email: "alice@example.com", role: "admin" }

let restoreEnv: () => void
beforeEach(() => {
  restoreEnv = isolateEnv()
  process.env.NEXTAUTH_SECRET = V4_SECRET
})
afterEach(() => {
  restoreEnv()
  vi.restoreAllMocks()
})

function request(path: string, cookie?: string, basePath?: string): NextRequest {
  const headers = cookie ? { cookie } : undefined
  return new NextRequest(`http://localhost:3000${basePath ?? ""}${path}`, {
    headers,
    ...(basePath ? { nextConfig: { basePath } } : {}),
  })
}

/** What a middleware answer tells Next: nothing (go on), or a status and Location. */
function outcome(result: unknown): unknown {
  if (result === undefined || result === null) return "next"
  const response = result as Response
  return [response.status, response.headers.get("location")]
}

/** The same call on both libraries' withAuth. */
async function both(args: (lib: "ours" | "theirs") => unknown[]): Promise<[unknown, unknown]> {
  const ours = await (withAuth as (...a: unknown[]) => unknown)(...args("ours"))
  const other = await theirs.withAuth(...args("theirs"))
  return [outcome(ours), outcome(other)]
}

const session = async (claims: Record<string, unknown> = CLAIMS) =>
  `next-auth.session-token=${await v4.encode({ token: claims, secret: V4_SECRET })}`

describe("withAuth as the default middleware", () => {
  it("redirects a signed-out request 307 to the sign-in page with a relative callbackUrl", async () => {
    const [ours, other] = await both(() => [request("/protected/page?tab=2")])
    expect(ours).toEqual(other)
    expect(ours).toEqual([307, "http://localhost:3000/api/auth/signin?callbackUrl=%2Fprotected%2Fpage%3Ftab%3D2"])
  })

  it("lets a request with a next-auth 4 session cookie through", async () => {
    const cookie = await session()
    const [ours, other] = await both(() => [request("/protected", cookie)])
    expect([ours, other]).toEqual(["next", "next"])
  })

  it("redirects a cookie under another secret or tampered", async () => {
    const foreign = `next-auth.session-token=${await v4.encode({ token: CLAIMS, secret: `${V4_SECRET}x` })}`
    const [ours, other] = await both(() => [request("/protected", foreign)])
    expect(ours).toEqual(other)
    expect((ours as unknown[])[0]).toBe(307)
  })

  it("never guards the auth routes, /_next, /favicon.ico and the sign-in and error pages", async () => {
    for (const path of ["/api/auth/signin", "/api/auth/session", "/_next/static/x.js", "/favicon.ico"]) {
      const [ours, other] = await both(() => [request(path)])
      expect([path, ours]).toEqual([path, "next"])
      expect(other).toBe("next")
    }
    const options = { pages: { signIn: "/login", error: "/oops" } }
    for (const path of ["/login", "/oops"]) {
      const [ours, other] = await both(() => [request(path), options])
      expect([path, ours, other]).toEqual([path, "next", "next"])
    }
    const [ours, other] = await both(() => [request("/private"), options])
    expect(ours).toEqual(other)
    expect(ours).toEqual([307, "http://localhost:3000/login?callbackUrl=%2Fprivate"])
  })

  it("takes the auth path from NEXTAUTH_URL and keeps Next's basePath in both URLs", async () => {
    process.env.NEXTAUTH_URL = "https://app.example/docs/auth"
    const skipped = await both(() => [request("/auth/session", undefined, "/docs")])
    expect(skipped).toEqual(["next", "next"])
    const [ours, other] = await both(() => [request("/page", undefined, "/docs")])
    expect(ours).toEqual(other)
    expect(ours).toEqual([307, "http://localhost:3000/docs/api/auth/signin?callbackUrl=%2Fdocs%2Fpage"])
  })

  it("sends a request to the error page with error=Configuration when there is no secret", async () => {
    delete process.env.NEXTAUTH_SECRET
    const logged = vi.spyOn(console, "error").mockImplementation(() => {})
    const [ours, other] = await both(() => [request("/protected")])
    expect(ours).toEqual(other)
    expect(ours).toEqual([307, "http://localhost:3000/api/auth/error?error=Configuration"])
    expect(logged).toHaveBeenCalled()
  })
})

describe("withAuth with options and a wrapped middleware", () => {
  it("asks callbacks.authorized with the token and the request", async () => {
    const admin = await session()
    const user = await session({ ...CLAIMS, role: "user" })
    const seen: unknown[] = []
    const options = {
      callbacks: {
        authorized: ({ token, req }: { token: Record<string, unknown> | null; req: NextRequest }) => {
          seen.push([token?.role ?? null, new URL(req.url).pathname])
          return token?.role === "admin"
        },
      },
    }
    expect(await both(() => [request("/admin", admin), options])).toEqual(["next", "next"])
    const refused = await both(() => [request("/admin", user), options])
    expect(refused[0]).toEqual(refused[1])
    expect(refused[0]).toEqual([307, "http://localhost:3000/api/auth/signin?callbackUrl=%2Fadmin"])
    // Called for a signed-out request too, with a null token (true lets it on).
    const open = { callbacks: { authorized: () => true } }
    expect(await both(() => [request("/public"), open])).toEqual(["next", "next"])
    expect(seen.filter((entry) => (entry as unknown[])[0] === "admin")).toHaveLength(2)
    expect(seen.filter((entry) => (entry as unknown[])[0] === "user")).toHaveLength(2)
  })

  it("runs the wrapped middleware with req.nextauth.token when authorized, never when not", async () => {
    const cookie = await session()
    const calls: unknown[] = []
    const wrapped = withAuth(
      (req: NextRequestWithAuth) => {
        calls.push(req.nextauth.token?.sub)
        return new Response("from the app", { status: 200, headers: { "x-app": "1" } })
      },
      { secret: V4_SECRET },
    )
    const signedIn = (await wrapped(request("/dashboard", cookie) as NextRequestWithAuth, {} as never)) as Response
    expect(signedIn.status).toBe(200)
    expect(signedIn.headers.get("x-app")).toBe("1")
    expect(calls).toEqual(["user-1"])
    const signedOut = (await wrapped(request("/dashboard") as NextRequestWithAuth, {} as never)) as Response
    expect([signedOut.status, signedOut.headers.get("location")]).toEqual([
      307,
      "http://localhost:3000/api/auth/signin?callbackUrl=%2Fdashboard",
    ])
    expect(calls).toEqual(["user-1"])
  })

  it("withAuth(options) reads a renamed session cookie and a custom decode", async () => {
    const token = await v4.encode({ token: CLAIMS, secret: V4_SECRET })
    const decoded: string[] = []
    const options = {
      cookies: { sessionToken: { name: "app.session" } },
      jwt: {
        decode: async (params: JWTDecodeParams) => {
          decoded.push(params.token ?? "")
          return v4.decode({ token: params.token, secret: params.secret as string })
        },
      },
    }
    const ours = await withAuth(options)(request("/x", `app.session=${token}`) as NextRequestWithAuth, {} as never)
    expect(outcome(ours)).toBe("next")
    expect(decoded).toEqual([token])
    const other = await theirs.withAuth(options)(request("/x", `app.session=${token}`))
    expect(outcome(other)).toBe("next")
  })
})
