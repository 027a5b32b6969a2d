// Test stand-in for SvelteKit's `$env/dynamic/private` (vitest.config.ts aliases it): the tests set and clear variables.
export const env: Record<string, string | undefined> = {}
