// gatehouse/qwik: @auth/qwik's API (QwikAuth$ → onRequest, useSession, useSignIn, useSignOut) as a front door to the
// one pipeline. Written in the forms Qwik's optimizer outputs (inlinedQrl, globalActionQrl, routeLoaderQrl): the
// optimizer does not transform code in node_modules, so tsc's output is what a Qwik app bundles, as it stands. Every
// server-side body starts with `if (!isServer)`, so a client build drops the pipeline from the browser bundle.
import { implicit$FirstArg, inlinedQrl, type QRL, useLexicalScope } from "@builder.io/qwik"
import { isServer } from "@builder.io/qwik/build"
import {
  type Action,
  globalActionQrl,
  type Loader,
  type RequestEventCommon,
  routeLoaderQrl,
  z,
  zodQrl,
} from "@builder.io/qwik-city"
import type { InferSession } from "../../infer.js"
import type { Session } from "../../types.js"
import {
  type QwikAuthConfig,
  type QwikEvent,
  onRequestFor,
  qwikConfig,
  type SignInInput,
  signInFor,
  signOutFor,
  sessionOf,
} from "./handlers.js"

export type { QwikAuthConfig, SignInInput } from "./handlers.js"
export { AuthError, CredentialsSignin } from "../../errors.js"
export { customFetch } from "../../symbols.js"
export type { Account, DefaultSession, Profile, Session, User } from "../../types.js"
export type { InferJWT, InferSession } from "../../infer.js"

/** @auth/qwik's name for the result of its session read: the session and the cookie to set with it. */
export type GetSessionResult = Promise<{ data: Session | null; cookie: string | null }>

/** The config function `QwikAuth$` takes, as a QRL (what the optimizer makes of the `$` argument). */
export type QwikAuthConfigQrl = QRL<(event: RequestEventCommon) => QwikAuthConfig | Promise<QwikAuthConfig>>

/**
 * The value of `useSignIn()` / `useSignOut()` after a submit: nothing of its own when it went through, the form's
 * validation errors when it did not (the fields named by `F`). Spelled out, so the declarations do not depend on the
 * order in which the compiler meets the union's keys.
 */
export type QwikAuthActionResult<F extends string> =
  | { failed?: undefined; formErrors?: undefined; fieldErrors?: undefined }
  | { failed: true; formErrors: string[]; fieldErrors: Partial<Record<F, string>> }

/** What `QwikAuth$` returns: the plugin's request hook, the session loader and the two global actions. */
export interface QwikAuthHooks<S> {
  useSignIn: Action<
    QwikAuthActionResult<"providerId" | "redirectTo" | "options" | "authorizationParams">,
    SignInInput,
    false
  >
  useSignOut: Action<QwikAuthActionResult<"redirectTo">, { redirectTo?: string | undefined }, false>
  useSession: Loader<S | null>
  onRequest: (event: RequestEventCommon) => Promise<void>
}

/** Qwik City's request event as the handlers read it (its `headers` are the response's). */
function eventOf(event: RequestEventCommon): QwikEvent {
  return event as unknown as QwikEvent
}

/**
 * The form of `QwikAuth$` the optimizer calls: takes the config function as a QRL. Returns the plugin's `onRequest`,
 * `useSession` (a route loader, its value typed as the config's `InferSession`), `useSignIn` and `useSignOut`
 * (global actions).
 */
export function QwikAuthQrl<C extends QwikAuthConfig = QwikAuthConfig>(
  authOptions: QRL<(event: RequestEventCommon) => C | Promise<C>>,
): QwikAuthHooks<InferSession<C>> {
  const useSignIn = globalActionQrl(
    /* @__PURE__ */ inlinedQrl(
      async (input: SignInInput, event: RequestEventCommon) => {
        if (!isServer) return
        const [options] = useLexicalScope<[QwikAuthConfigQrl]>()
        await signInFor(await options(event), input, eventOf(event))
      },
      "gatehouse_qwik_useSignIn_globalAction_gh5sIgnIn",
      [authOptions],
    ),
    zodQrl(
      /* @__PURE__ */ inlinedQrl(
        {
          providerId: z.string().optional(),
          redirectTo: z.string().optional(),
          options: z.object({ redirectTo: z.string() }).passthrough().partial().optional(),
          authorizationParams: z.union([z.string(), z.custom<URLSearchParams>(), z.record(z.string())]).optional(),
        },
        "gatehouse_qwik_useSignIn_zod_gh5sIgnInZ",
      ),
    ),
  )

  const useSignOut = globalActionQrl(
    /* @__PURE__ */ inlinedQrl(
      async (input: { redirectTo?: string | undefined }, event: RequestEventCommon) => {
        if (!isServer) return
        const [options] = useLexicalScope<[QwikAuthConfigQrl]>()
        await signOutFor(await options(event), input, eventOf(event))
      },
      "gatehouse_qwik_useSignOut_globalAction_gh5sIgnOut",
      [authOptions],
    ),
    zodQrl(
      /* @__PURE__ */ inlinedQrl({ redirectTo: z.string().optional() }, "gatehouse_qwik_useSignOut_zod_gh5sIgnOutZ"),
    ),
  )

  // The session the plugin read for this request, typed as the config's callbacks shape it. Qwik's Loader<T> maps T
  // through a conditional it cannot resolve for a generic T, so the loader is typed by a cast (the value is the same).
  const useSession = routeLoaderQrl(
    /* @__PURE__ */ inlinedQrl(
      (event: RequestEventCommon): Session | null => sessionOf(event),
      "gatehouse_qwik_useSession_routeLoader_gh5sEssion",
    ),
  ) as unknown as Loader<InferSession<C> | null>

  async function onRequest(event: RequestEventCommon): Promise<void> {
    if (!isServer) return
    await onRequestFor(await authOptions(event), eventOf(event))
  }

  return { useSignIn, useSignOut, useSession, onRequest }
}

/**
 * Sets up Gatehouse in a Qwik City app, in `src/routes/plugin@auth.ts`:
 * `export const { onRequest, useSession, useSignIn, useSignOut } = QwikAuth$(() => config)`. Auth routes live under
 * `/auth`; the session of each request is in `sharedMap.get("session")`. Return the same config object each time
 * (define it once) so it is resolved once.
 */
export const QwikAuth$ = /* @__PURE__ */ implicit$FirstArg(QwikAuthQrl)

/**
 * @auth/qwik's helper, for apps that call it themselves: fills `config` in place from Qwik's environment as the plugin
 * derives it (basePath `/auth`, the secrets, the redirect proxy URL, trustHost, the providers' AUTH_<ID>_*). Unlike
 * @auth/qwik's, it leaves the CSRF check on.
 */
export function setEnvDefaults(env: { get(name: string): string | undefined }, config: QwikAuthConfig): void {
  if (!isServer) return
  const { basePath, secret, redirectProxyUrl, trustHost, providers } = qwikConfig(
    config,
    (name) => env.get(name) || undefined,
  )
  Object.assign(config, { basePath, secret, redirectProxyUrl, trustHost, providers })
}
