// Gatehouse in Bun: test/runtimes/apps/bun.ts run by the bun binary of the `bun` dev dependency, straight from
// source against dist/ (no bundler: Bun resolves the package's exports and picks #crypto with its bun condition).
import { describe } from "vitest"
import { ROOT, runtimeBinary, runtimeSuite, spawnApp } from "../support/runtime-kit.js"

describe("Bun", () => {
  runtimeSuite((env) => {
    const bun = runtimeBinary("bun", ["@oven/bun-linux-x64/bin/bun", "@oven/bun-linux-aarch64/bin/bun"])
    return spawnApp(bun, ["run", `${ROOT}test/runtimes/apps/bun.ts`], env)
  })
})
