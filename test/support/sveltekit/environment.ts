// Test stand-in for SvelteKit's `$app/environment` (vitest.config.ts aliases it): `vite dev` or a production build.
export let dev = false
export const building = false
export const browser = false
export const version = "test"

export function setDev(value: boolean): void {
  dev = value
}
