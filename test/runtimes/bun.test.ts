// Gatehouse in Bun: test/runtimes/apps/bun.ts run by the bun binary of the `bun` dev dependency, straight from
// source against dist/ (no bundler: Bun resolves the package's exports and picks #crypto with its bun condition).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe } from "vitest"
import { ROOT, runtimeBinary, runtimeSuite, spawnApp } from "../support/runtime-kit.js"

const APP = `${ROOT}test/runtimes/apps/bun.ts`

describe("Bun", () => {
  runtimeSuite(async (env) => {
    const bun = runtimeBinary("bun", ["@oven/bun-linux-x64/bin/bun", "@oven/bun-linux-aarch64/bin/bun"])
    // Bun applies the nearest tsconfig.json's paths to every file, dist/ included, and the repo's maps #crypto to the
    // node backend's source for type checking. An installed copy has no tsconfig.json beside it: an empty one stands in.
    const dir = mkdtempSync(join(tmpdir(), "gatehouse-bun-"))
    writeFileSync(join(dir, "tsconfig.json"), "{}\n")
    const removeDir = (): void => rmSync(dir, { recursive: true, force: true })
    const app = await spawnApp(bun, ["run", `--tsconfig-override=${join(dir, "tsconfig.json")}`, APP], env).catch(
      (error: unknown) => {
        removeDir()
        throw error
      },
    )
    return { ...app, stop: () => app.stop().finally(removeDir) }
  })
})
