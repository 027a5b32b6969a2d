// Test stand-in for SvelteKit's `$app/paths` (vitest.config.ts aliases it): `base` is the app's paths.base.
export let base = ""
export const assets = ""

export function setBase(value: string): void {
  base = value
}
