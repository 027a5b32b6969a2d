// Gatehouse in the Edge runtime (the `edge-runtime` package: Vercel's runtime for Next.js middleware and edge
// routes, a V8 context with web APIs only: no process, no Buffer, no node:*, no eval). test/runtimes/apps/edge.ts is
// bundled with the edge-light conditions, which pick the Web Crypto backend, and served on 127.0.0.1.
import { EdgeRuntime, runServer } from "edge-runtime"
import { describe, expect } from "vitest"
import { bundleApp, runtimeSuite } from "../support/runtime-kit.js"

describe("Edge runtime", () => {
  runtimeSuite(async (env) => {
    const bundle = await bundleApp("test/runtimes/apps/edge.ts", ["edge-light", "worker", "browser"], "iife")
    expect(bundle.inputs, "edge-light picks the Web Crypto backend").toContain("dist/crypto/web.js")
    expect(bundle.inputs).not.toContain("dist/crypto/node.js")
    const runtime = new EdgeRuntime({ initialCode: `globalThis.RUNTIME_ENV = ${JSON.stringify(env)};\n${bundle.code}` })
    const server = await runServer({ runtime, port: 0, host: "127.0.0.1" })
    return { origin: new URL(server.url).origin, stop: () => server.close(), output: () => "" }
  })
})
