// SvelteKit generates the declaration of `$env/dynamic/private` into each app's .svelte-kit/ambient.d.ts; @sveltejs/kit's
// own types declare `$app/*` only. This one lets the entry type-check here. It is not emitted (tsc copies no .d.ts), so
// an app sees its own.
declare module "$env/dynamic/private" {
  export const env: Record<string, string | undefined>
}
