// The types of gatehouse/sveltekit that @auth/sveltekit declares: its config type, and what `handle` adds to
// SvelteKit's App.Locals (an app gets them by importing the entry anywhere, as with @auth/sveltekit).
import type { InferSession } from "../../infer.js"
import type { ProviderId } from "../../providers/index.js"
import type { AuthConfig, Session } from "../../types.js"

/** The config SvelteKitAuth takes: Gatehouse's, without `raw`; `basePath` is always `${base}/auth`. */
export interface SvelteKitAuthConfig extends Omit<AuthConfig, "raw"> {}

/**
 * Names the app's config so `locals.auth()` and `PageData.session` are typed from it (`InferSession`). SvelteKit's
 * `App.Locals` is global, so the app names its config once, in src/app.d.ts:
 * `declare module "gatehouse/sveltekit" { interface Register { config: typeof config } }` (with
 * `import type { config } from "./auth"`). Without it they are typed `Session`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the app's module augmentation
export interface Register {}

/** The session type of `locals.auth()`: the registered config's `InferSession`, else `Session`. */
export type RegisteredSession = Register extends { config: infer C } ? InferSession<C> : Session

/** Options of `event.locals.signIn`: where to land, whether to redirect, and the provider's fields (credentials). */
export type LocalsSignInOptions<Redirect extends boolean = true> =
  | FormData
  | ({
      /** Where to land after signing in; default: the Referer, else "/". */
      redirectTo?: string
      /** false: resolve to the URL instead of redirecting. */
      redirect?: Redirect
    } & Record<string, unknown>)

/** Options of `event.locals.signOut`. */
export interface LocalsSignOutOptions<Redirect extends boolean = true> {
  /** Where to land after signing out; default: the Referer, else "/". */
  redirectTo?: string
  /** false: resolve to the URL instead of redirecting. */
  redirect?: Redirect
}

declare global {
  namespace App {
    interface Locals {
      /** The session of this request (null: signed out), read from its Cookie header; typed by `Register`. */
      auth(): Promise<RegisteredSession | null>
      /** @deprecated Use `auth` instead. */
      getSession(): Promise<RegisteredSession | null>
      /**
       * Signs in from server code (a form action, a load function). Redirects (throws SvelteKit's redirect) unless
       * `redirect: false`, then resolves to the URL the browser should go to.
       */
      signIn: <Redirect extends boolean = true>(
        provider?: ProviderId,
        options?: LocalsSignInOptions<Redirect>,
        authorizationParams?: string[][] | Record<string, string> | string | URLSearchParams,
      ) => Promise<Redirect extends false ? string : never>
      /** Signs out from server code; redirects unless `redirect: false`, then resolves to the URL. */
      signOut: <Redirect extends boolean = true>(
        options?: LocalsSignOutOptions<Redirect>,
      ) => Promise<Redirect extends false ? string : never>
    }
    interface PageData {
      session?: RegisteredSession | null
    }
  }
}
