// gatehouse/v4/middleware and /v4/jwt inside the Edge runtime (edge-runtime, what Next.js runs middleware in: no
// process, no Buffer, no node:*): test/runtimes/apps/v4-middleware.ts is bundled from the built package with the
// edge-light conditions, which must pick the Web Crypto backend and pull in no Node.js built-in, and served on
// 127.0.0.1. A session cookie minted by next-auth 4.24.15 on Node lets a request through; the token the runtime
// mints is one next-auth 4 decodes.
import { EdgeRuntime, runServer } from "edge-runtime"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ensureDist } from "../support/dist.js"
import { nextAuthV4Jwt } from "../support/next-auth-v4.js"
import { bundleApp } from "../support/runtime-kit.js"
import { V4_SECRET } from "./kit.js"

const v4 = nextAuthV4Jwt()
let origin = ""
let inputs: string[] = []
let close: (() => Promise<void>) | undefined

beforeAll(async () => {
  ensureDist()
  const bundle = await bundleApp("test/runtimes/apps/v4-middleware.ts", ["edge-light", "worker", "browser"], "iife")
  inputs = bundle.inputs
  const runtime = new EdgeRuntime({
    initialCode: `globalThis.V4_SECRET = ${JSON.stringify(V4_SECRET)};\n${bundle.code}`,
  })
  const server = await runServer({ runtime, port: 0, host: "127.0.0.1" })
  origin = new URL(server.url).origin
  close = () => server.close()
}, 240_000)
afterAll(async () => close?.())

const get = (path: string, cookie?: string) =>
  fetch(`${origin}${path}`, { redirect: "manual", headers: cookie ? { cookie } : {} })

describe("gatehouse/v4 middleware in the Edge runtime", () => {
  it("is bundled with the Web Crypto backend and runs where there is no process and no Buffer", async () => {
    expect(inputs).toContain("dist/crypto/web.js")
    expect(inputs).not.toContain("dist/crypto/node.js")
    expect(inputs.filter((path) => path.startsWith("dist/integrations/next-v4/")).sort()).toEqual([
      "dist/integrations/next-v4/jwt.js",
      "dist/integrations/next-v4/middleware.js",
    ])
    expect(await (await get("/runtime")).json()).toEqual({ process: "undefined", buffer: "undefined" })
  })

  it("redirects a signed-out request 307 to the sign-in page with a relative callbackUrl", async () => {
    const res = await get("/protected/page?tab=2")
    expect(res.status).toBe(307)
    expect(res.headers.get("location")).toBe(`${origin}/api/auth/signin?callbackUrl=%2Fprotected%2Fpage%3Ftab%3D2`)
  })

  it("lets a next-auth 4 session cookie through, and the wrapped middleware sees its token", async () => {
    const token = await v4.encode({ token: { sub: "user-1", email: "alice@example.com" }, secret: V4_SECRET })
    const page = await get("/protected/page", `next-auth.session-token=${token}`)
    expect([page.status, page.headers.get("x-middleware")]).toEqual([200, "next"])
    const wrapped = await get("/wrapped", `next-auth.session-token=${token}`)
    expect((await wrapped.json()).token).toMatchObject({ sub: "user-1", email: "alice@example.com" })
  })

  it("redirects a tampered cookie, and mints a token next-auth 4 decodes", async () => {
    const token = await v4.encode({ token: { sub: "user-1" }, secret: V4_SECRET })
    const tampered = `${token.slice(0, -4)}${token.endsWith("AAAA") ? "BBBB" : "AAAA"}`
    expect((await get("/protected", `next-auth.session-token=${tampered}`)).status).toBe(307)
    const minted = await (await get("/mint")).text()
    expect(await v4.decode({ token: minted, secret: V4_SECRET })).toMatchObject({ sub: "edge-user", name: "Edge" })
  })
})
