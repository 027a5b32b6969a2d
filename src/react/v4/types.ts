// The public types of gatehouse/v4/react, shaped as next-auth 4's `next-auth/react` declares them so that code written
// against those names compiles unchanged. No Node.js type is named here: the entry must type-check in a browser project.
import type { ReactNode } from "react"
import type { ProviderType } from "../../records.js"
import type { Session } from "../../types.js"

export type { ProviderType }

/** A string type that offers the listed literals for completion and accepts any other string too. */
export type LiteralUnion<T extends U, U = string> = T | (U & Record<never, never>)

/** The provider types whose `signIn(..., { redirect: false })` answers a SignInResponse instead of navigating. */
export type RedirectableProviderType = "email" | "credentials"

/** One provider as `/providers` describes it to the browser (no secrets). */
export interface ClientSafeProvider {
  id: LiteralUnion<RedirectableProviderType>
  name: string
  type: ProviderType
  signinUrl: string
  callbackUrl: string
}

/** Options of `signIn`; every other field (username, password, email, …) is posted to the server as a form field. */
export interface SignInOptions extends Record<string, unknown> {
  /** Where the user lands after signing in; default: the current page. */
  callbackUrl?: string
  /** `false` answers a SignInResponse instead of navigating (credentials and e-mail providers only). */
  redirect?: boolean
}

/** What `signIn(..., { redirect: false })` answers for a credentials or e-mail provider. */
export interface SignInResponse {
  /** The `error` query parameter of the URL the server returned (e.g. `CredentialsSignin`), null on success. */
  error: string | null
  /** The HTTP status of the sign-in request (next-auth 4 answers 401 to a refused credentials sign-in). */
  status: number
  /** Whether the request succeeded (the status is 2xx). */
  ok: boolean
  /** Where the server would send the user; null when it named an error. */
  url: string | null
}

/** Extra query parameters for the provider's authorization request (OAuth), in any form URLSearchParams takes. */
export type SignInAuthorizationParams = string | string[][] | Record<string, string> | URLSearchParams

/** What `signOut({ redirect: false })` answers: where the server would send the user. */
export interface SignOutResponse {
  url: string
}

/** Options of `signOut`. */
export interface SignOutParams<R extends boolean = true> {
  /** Where the user lands after signing out; default: the current page. */
  callbackUrl?: string
  /** `false` answers `{ url }` instead of navigating (default true). */
  redirect?: R
}

/** Options of `useSession`. */
export interface UseSessionOptions<R extends boolean> {
  /** The page needs a session: when signed out, run `onUnauthenticated` or go to the sign-in page. */
  required: R
  /** What to do instead of going to the sign-in page when `required` and signed out. */
  onUnauthenticated?: () => void
}

/**
 * The parts of a server request a server-side `getSession` / `getCsrfToken` reads: the Cookie header, which is sent on
 * to the auth routes. A node IncomingMessage, a NextApiRequest or a web Request all fit.
 */
export interface RequestLike {
  headers?: { cookie?: string | string[] | undefined } | { get(name: string): string | null }
}

/** Where a server-side call finds the incoming request: `{ req }`, or `{ ctx }` as `getInitialProps` hands it over. */
export interface CtxOrReq {
  req?: RequestLike
  ctx?: { req?: RequestLike }
}

/** Options of `getSession`: the request (server side), and whether the other tabs are told to refetch (default true). */
export type GetSessionParams = CtxOrReq & {
  /** Accepted for next-auth 4 code; not used. */
  event?: "storage" | "timer" | "hidden" | string
  /** Accepted for next-auth 4 code; not used. */
  triggerEvent?: boolean
  /** Tell the other tabs of this origin to refetch their session (default true, as next-auth 4). */
  broadcast?: boolean
}

/**
 * `useSession().update`: POST `/session` with the data (the jwt callback's `trigger: "update"`); answers the new
 * session, null when refused, and (as next-auth 4, whose type does not say so) undefined while loading or signed out.
 */
export type UpdateSession = (data?: unknown) => Promise<Session | null>

/** What `useSession` answers; with `required: true` the signed-out state reads as "loading" until the user leaves. */
export type SessionContextValue<R extends boolean = false> = R extends true
  ?
      | { update: UpdateSession; data: Session; status: "authenticated" }
      | { update: UpdateSession; data: null; status: "loading" }
  :
      | { update: UpdateSession; data: Session; status: "authenticated" }
      | { update: UpdateSession; data: null; status: "unauthenticated" | "loading" }

/** Props of SessionProvider. */
export interface SessionProviderProps {
  children: ReactNode
  /** The session the server already read (no first fetch); `null` means signed out; undefined fetches it. */
  session?: Session | null
  /** Accepted for next-auth 4 code, which declares it and never reads it; not used. */
  baseUrl?: string
  /** Path of the auth routes on this origin for the page's requests; default the path of NEXTAUTH_URL, or `/api/auth`. */
  basePath?: string
  /** Refetch the session every this many seconds while signed in (0, the default, never polls). */
  refetchInterval?: number
  /** Refetch when the tab becomes visible again (default true). */
  refetchOnWindowFocus?: boolean
  /** `false` stops the interval refetch while the browser is offline (`navigator.onLine`). */
  refetchWhenOffline?: false
}
