// gatehouse/next on Next 16's Edge runtime, built with `next build` and served by `next start` on 127.0.0.1: the
// official next-auth example's middleware.ts (no `runtime`, so Edge), the auth route handlers, the home page with its
// signIn/signOut server actions and one more route handler calling auth(), all with `export const runtime = "edge"`
// (next-edge/app.ts). Checks that Next put them on Edge, then signs in and out in headless Chromium.
// Uses dist/ (built on first need by test/support/dist.ts): the app imports gatehouse/next through the package's exports.
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { skipReason } from "../e2e/support/chromium.js"
import { ensureDist } from "../support/dist.js"
import { expectBuiltForEdge, prepareRepoEdgeApp, signInAndOutOnEdge } from "./next-edge/app.js"
import { NextProcess, removeApp } from "./next15/harness.js"

let dir: string | undefined
let build: NextProcess | undefined
let server: NextProcess | undefined
let origin = ""
let buildOutput = ""

beforeAll(async () => {
  ensureDist()
  dir = prepareRepoEdgeApp()
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" }
  delete env.AUTH_SECRET
  delete env.AUTH_URL
  delete env.AUTH_TRUST_HOST
  const bin = join(dir, "../../node_modules/next/dist/bin/next")
  const started = Date.now()
  build = new NextProcess(dir, ["build"], env, bin)
  const code = await build.exited
  buildOutput = build.output
  console.log(`next build (Edge app) took ${((Date.now() - started) / 1000).toFixed(1)} s`)
  if (code !== 0) throw new Error(`next build of the Edge app failed (${code}):\n${build.output}`)
  server = new NextProcess(dir, ["start", "-p", "0", "-H", "127.0.0.1"], env, bin)
  origin = (await server.origin(30_000)).replace("127.0.0.1", "localhost")
}, 300_000)

afterAll(async () => {
  await build?.stop() // still running only when beforeAll timed out
  await server?.stop()
  removeApp(dir)
})

describe("gatehouse/next on the Edge runtime (Next 16)", () => {
  it("is built by Next 16 with the middleware, the auth route handlers, the home page and /api/edge-session on Edge", () => {
    expect(buildOutput).toMatch(/Next\.js 16\./)
    expectBuiltForEdge(dir!, buildOutput)
  })

  it.skipIf(skipReason)(
    "signs in and out in Chromium through the Edge middleware, route handlers and server actions",
    async () => {
      await signInAndOutOnEdge(origin)
    },
    60_000,
  )
})
