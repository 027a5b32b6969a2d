// Build config: one ESM entry per public subpath, with bundled type declarations.
import { defineConfig } from "tsup"

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "jwt/index": "src/jwt/index.ts",
    errors: "src/errors.ts",
    "adapters/index": "src/adapters/index.ts",
    "adapters/memory": "src/adapters/memory.ts",
    "adapters/postgres": "src/adapters/postgres.ts",
    "adapters/testing": "src/adapters/testing.ts",
    "providers/index": "src/providers/index.ts",
    "providers/credentials": "src/providers/credentials.ts",
    "integrations/node": "src/integrations/node.ts",
    "providers/github": "src/providers/github.ts",
    "providers/google": "src/providers/google.ts",
    "providers/twitter": "src/providers/twitter.ts",
    "providers/vk": "src/providers/vk.ts",
    "providers/tiktok": "src/providers/tiktok.ts",
  },
  format: ["esm"],
  target: "node20",
  platform: "node",
  dts: true,
  splitting: true,
  sourcemap: true,
  clean: true,
  treeshake: true,
})
