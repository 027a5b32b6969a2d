// Test runner config: unit tests beside the code (src/**), flow and security tests in test/.
import { availableParallelism } from "node:os"
import { fileURLToPath } from "node:url"
import { BaseSequencer, type TestSpecification } from "vitest/node"
import { defineConfig } from "vitest/config"

/**
 * The files that take longest, matched by path: the framework apps that `next build` / `vite build` (test/integrations/
 * *-app.test.ts), the browser tests, the runtimes and the packed tarball. They start first, so that the short files
 * fill both workers at the end instead of one long file running alone.
 */
const SLOW_FIRST = [
  /^test\/integrations\/[^/]+-app\.test\.ts$/,
  /^test\/e2e\//,
  /^test\/runtimes\//,
  /^test\/pack\.test\.ts$/,
]

function rank(file: TestSpecification): number {
  const path = file.moduleId.slice(file.project.config.root.length + 1)
  const index = SLOW_FIRST.findIndex((pattern) => pattern.test(path))
  return index === -1 ? SLOW_FIRST.length : index
}

class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Array.prototype.sort is stable: within a rank, the base order (slowest last time, else largest file) stays.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b))
  }
}

export default defineConfig({
  // The crypto seam (package.json "imports" maps #crypto into dist/ by export condition): tests run the Node backend
  // from source; src/crypto/*.test.ts import the Web Crypto backend directly.
  // SvelteKit's virtual modules, which only gatehouse/sveltekit and @auth/sveltekit import: test stand-ins
  // (test/support/sveltekit/), and @auth/sveltekit run through vite so that its imports of them resolve here too.
  resolve: {
    alias: {
      "#crypto": fileURLToPath(new URL("./src/crypto/node.ts", import.meta.url)),
      "$env/dynamic/private": fileURLToPath(new URL("./test/support/sveltekit/env.ts", import.meta.url)),
      "$app/paths": fileURLToPath(new URL("./test/support/sveltekit/paths.ts", import.meta.url)),
      "$app/environment": fileURLToPath(new URL("./test/support/sveltekit/environment.ts", import.meta.url)),
    },
  },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    server: { deps: { inline: ["@auth/sveltekit"] } },
    // One worker per core, where vitest's own default leaves one core to itself (one worker on CI's two): most files
    // wait on a server, a browser or a child process part of the time, and a second worker fills those waits.
    maxWorkers: Math.max(2, availableParallelism()),
    sequence: { sequencer: SlowFirstSequencer },
  },
})
