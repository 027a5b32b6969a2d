// Gatehouse in Cloudflare's workerd (through miniflare, which ships it), without the nodejs_compat flag: no process,
// no Buffer, no node:*. test/runtimes/apps/workerd.ts, a Hono app with gatehouse/hono, is bundled with the workerd
// conditions, which pick the Web Crypto backend, and served on 127.0.0.1.
import { Miniflare } from "miniflare"
import { describe, expect, it } from "vitest"
import { bundleApp, runtimeSuite } from "../support/runtime-kit.js"

/** A date this workerd supports; no compatibility flags (nodejs_compat stays off). */
const COMPATIBILITY_DATE = "2026-04-01"

describe("workerd", () => {
  const suite = runtimeSuite(async (env) => {
    const bundle = await bundleApp("test/runtimes/apps/workerd.ts", ["workerd", "worker", "browser"], "esm")
    expect(bundle.inputs, "workerd picks the Web Crypto backend").toContain("dist/crypto/web.js")
    expect(bundle.inputs).not.toContain("dist/crypto/node.js")
    const mf = new Miniflare({
      modules: true,
      script: bundle.code,
      compatibilityDate: COMPATIBILITY_DATE,
      bindings: { ...env },
      host: "127.0.0.1",
      port: 0,
    })
    const url = await mf.ready
    return { origin: url.origin, stop: () => mf.dispose(), output: () => "" }
  })

  it("verifyAuth() lets a signed-in request through and answers 401 to others", async () => {
    const origin = "http://localhost:3000"
    const anonymous = await suite.browser().request(`${origin}/protected`)
    expect(anonymous.status).toBe(401)
    const b = await suite.signedIn()
    const res = await b.request(`${origin}/protected`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ user: { name: "Grace Hopper", email: "grace@example.test" } })
  })
})
