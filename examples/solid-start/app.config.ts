// SolidStart's config. The one plugin is for this repository only: here `gatehouse` is the checkout itself (built into
// dist/ by `npm run build`), not a package in node_modules, and Vite does not resolve a package by its own name. An
// app that installed gatehouse deletes it and keeps `defineConfig({})`.
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { defineConfig } from "@solidjs/start/config"

const checkout = fileURLToPath(new URL("../../", import.meta.url))

interface ResolveContext {
  resolve(source: string, importer: string | undefined, options: { skipSelf: boolean }): Promise<unknown>
}

/** `gatehouse/<subpath>` → the checkout's dist/ file for it, when no installed gatehouse answers first. */
function gatehouseCheckout() {
  const manifest = join(checkout, "package.json")
  const exportsMap = existsSync(manifest)
    ? (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; exports?: Record<string, { import?: string }> })
    : undefined
  return {
    name: "gatehouse-checkout",
    enforce: "pre" as const,
    async resolveId(this: ResolveContext, source: string, importer: string | undefined) {
      if (exportsMap?.name !== "gatehouse" || !/^gatehouse(\/|$)/.test(source)) return null
      const installed = await this.resolve(source, importer, { skipSelf: true })
      if (installed) return installed
      const entry = exportsMap.exports?.[`.${source.slice("gatehouse".length)}`]?.import
      return entry ? join(checkout, entry) : null
    },
  }
}

export default defineConfig({ vite: { plugins: [gatehouseCheckout()] } })
