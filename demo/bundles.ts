// Browser bundles the demo serves, built once at start with esbuild: gatehouse/webauthn and the /react page's app.
import { fileURLToPath } from "node:url"
import { build } from "esbuild"

export interface DemoBundles {
  /** gatehouse/webauthn (signIn for passkeys), for the home page's "Add a passkey" button: /webauthn.js */
  webauthn: string
  /** demo/react-app.ts with React, for /react: /react.js */
  react: string
}

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url))

export async function buildBundles(): Promise<DemoBundles> {
  const result = await build({
    entryPoints: { webauthn: here("../src/webauthn/index.ts"), react: here("./react-app.ts") },
    bundle: true,
    write: false,
    outdir: "/bundles",
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
  })
  const text = (name: string): string => {
    const file = result.outputFiles.find((f) => f.path.endsWith(`/${name}.js`))
    if (!file) throw new Error(`esbuild produced no ${name}.js`)
    return file.text
  }
  return { webauthn: text("webauthn"), react: text("react") }
}
