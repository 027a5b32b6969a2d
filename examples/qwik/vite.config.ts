// The app's Vite config: Qwik City (routes from src/routes) and Qwik's optimizer. `vite build` builds the client;
// adapters/node-server/vite.config.ts builds the Node.js server on top of it.
import { qwikCity } from "@builder.io/qwik-city/vite"
import { qwikVite } from "@builder.io/qwik/optimizer"
import { defineConfig } from "vite"

export default defineConfig(() => ({
  plugins: [qwikCity(), qwikVite()],
  preview: { headers: { "Cache-Control": "public, max-age=600" } },
}))
