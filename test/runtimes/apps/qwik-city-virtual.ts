// The modules Qwik City's and Qwik's vite plugins generate for an adapter build, as an app without pages has them:
// @qwik-city-static-paths (no static files), @qwik-city-not-found-paths (a plain 404 page), @qwik-city-plan (read by
// the client router only; the server gets its plan from the adapter's options), @qwik-city-sw-register and
// @qwik-client-manifest (page rendering only).
export function isStaticPath(): boolean {
  return false
}

export function getNotFound(): string {
  return "Not Found"
}

export const routes: unknown[] = []
export const serverPlugins: unknown[] = []
export const menus: unknown[] = []
export const trailingSlash = false
export const basePathname = "/"
export const cacheModules = true
export const manifest = undefined
export default ""
