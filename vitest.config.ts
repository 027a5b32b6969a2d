// Test runner config: unit tests beside the code (src/**), flow and security tests in test/.
import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

export default defineConfig({
  // The crypto seam (package.json "imports" maps #crypto into dist/ by export condition): tests run the Node backend
  // from source; src/crypto/*.test.ts import the Web Crypto backend directly.
  resolve: { alias: { "#crypto": fileURLToPath(new URL("./src/crypto/node.ts", import.meta.url)) } },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
})
