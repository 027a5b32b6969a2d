// SvelteKit's virtual modules as its Cloudflare adapter provides them, for the frameworks app (bundled in place of
// `$env/dynamic/private`, `$app/paths` and `$app/environment`). The adapter's worker hands the Worker's bindings to
// SvelteKit's server on each request, which assigns them to the `env` binding of `$env/dynamic/private`: setPrivateEnv
// does the same, so gatehouse/sveltekit reads AUTH_SECRET and AUTH_TRUST_HOST from the bindings.

/** `$env/dynamic/private`: reassigned per request, read through the live import binding. */
export let env: Record<string, string | undefined> = {}

export function setPrivateEnv(next: Record<string, string | undefined>): void {
  env = next
}

/** `$app/paths`: an app at the root (kit.paths.base is ""). */
export const base = ""
export const assets = ""

/** `$app/environment`: a production build serving requests. */
export const browser = false
export const building = false
export const dev = false
export const version = "frameworks-test"
