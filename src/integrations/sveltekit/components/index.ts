// gatehouse/sveltekit/components (@auth/sveltekit/components): the SignIn and SignOut forms, shipped as .svelte
// source for the app's own compiler (the "svelte" export condition); their types are svelte's for any .svelte module,
// which the reference below brings into an app's program (kept in the emitted .d.ts).
/// <reference types="svelte" preserve="true" />
export { default as SignIn } from "./SignIn.svelte"
export { default as SignOut } from "./SignOut.svelte"
