// Gatehouse in Bun: test/runtimes/apps/bun.ts run by the bun binary of the `bun` dev dependency, straight from
// source against dist/ (no bundler: Bun resolves the package's exports and picks #crypto with its bun condition).
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe } from "vitest"
import { ROOT, runtimeBinary, runtimeSuite, spawnApp } from "../support/runtime-kit.js"

describe("Bun", () => {
  runtimeSuite((env) => {
    const bun = runtimeBinary("bun", ["@oven/bun-linux-x64/bin/bun", "@oven/bun-linux-aarch64/bin/bun"])
    // Bun applies the nearest tsconfig.json's paths to every file, dist/ included, and the repo's maps #crypto to the
    // seam's declarations for type checking. An installed copy has no tsconfig.json beside it: an empty one stands in.
    const tsconfig = join(mkdtempSync(join(tmpdir(), "gatehouse-bun-")), "tsconfig.json")
    writeFileSync(tsconfig, "{}\n")
    return spawnApp(bun, ["run", `--tsconfig-override=${tsconfig}`, `${ROOT}test/runtimes/apps/bun.ts`], env)
  })
})
