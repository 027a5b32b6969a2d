// SvelteKit's Vite plugin, and one more for this repository only: here gatehouse is the checkout itself (dist/, after
// `npm run build`), not a package in node_modules, and Vite does not resolve a package's own name from inside it as
// Node.js does. An app that installs gatehouse resolves it as any package, and this plugin then does nothing.
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { sveltekit } from "@sveltejs/kit/vite"
import { defineConfig, type Plugin } from "vite"

function gatehouseFromCheckout(): Plugin {
  const checkout = new URL("../../", import.meta.url)
  return {
    name: "gatehouse-from-checkout",
    enforce: "pre",
    async resolveId(id, importer, options) {
      const subpath = /^gatehouse(\/.*)?$/.exec(id)
      if (!subpath) return null
      const installed = await this.resolve(id, importer, { ...options, skipSelf: true })
      if (installed) return installed
      const pkg = JSON.parse(readFileSync(new URL("package.json", checkout), "utf8")) as {
        name?: string
        exports?: Record<string, { svelte?: string; import?: string }>
      }
      const target = pkg.name === "gatehouse" ? pkg.exports?.[`.${subpath[1] ?? ""}`] : undefined
      const file = target?.svelte ?? target?.import
      return file ? fileURLToPath(new URL(file, checkout)) : null
    },
  }
}

export default defineConfig({ plugins: [gatehouseFromCheckout(), sveltekit()] })
