// Test runner config: unit tests beside the code (src/**), flow and security tests in test/.
import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

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
  },
})
