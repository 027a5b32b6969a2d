// gatehouse/sveltekit/components (@auth/sveltekit/components): the SignIn and SignOut forms, shipped as .svelte
// source for the app's own compiler (the "svelte" export condition); their types are svelte's for any .svelte module.
export { default as SignIn } from "./SignIn.svelte"
export { default as SignOut } from "./SignOut.svelte"
