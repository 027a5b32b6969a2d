// Test stand-in for SvelteKit's `$env/dynamic/private` (vitest.config.ts aliases it). As in SvelteKit, whose server
// start assigns a new object to the binding (set_private_env), the tests replace the object rather than change it.
export let env: Record<string, string | undefined> = {}

export function setPrivateEnv(record: Record<string, string | undefined>): void {
  env = record
}
