// Public `gatehouse/react`: SessionProvider and useSession (the API of next-auth/react), plus the client helpers.
"use client"
import { createContext, createElement, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react"
import type { Context, ReactElement, ReactNode } from "react"
import { AuthError } from "../errors.js"
import type { Session } from "../types.js"
import { authUrl, configure } from "../client/config.js"
import { subscribe } from "../client/events.js"
import type { SessionChange } from "../client/events.js"
import { fetchSession } from "../client/fetch-session.js"
import { getSession, update as updateSession } from "../client/index.js"
import { useRequiredSession } from "./required.js"

export type { Session } from "../types.js"
export { configure, getCsrfToken, getProviders, getSession, signIn, signOut } from "../client/index.js"
export type {
  ClientSafeProvider,
  GetSessionParams,
  ProviderType,
  SignInAuthorizationParams,
  SignInOptions,
  SignInResponse,
  SignOutParams,
  SignOutResponse,
} from "../client/index.js"

/** Refreshes the session: with `data`, POST `/session` (the jwt callback's `trigger: "update"`); without, a refetch. */
export type UpdateSession<S = Session> = (data?: unknown) => Promise<S | null | undefined>

/**
 * What `useSession` answers; with `required: true` the signed-out state reads as "loading" until you leave. `S` is
 * the session type (`useSession<S>()`).
 */
export type SessionContextValue<R extends boolean = false, S = Session> = R extends true
  ?
      | { update: UpdateSession<S>; data: S; status: "authenticated" }
      | { update: UpdateSession<S>; data: null; status: "loading" }
  :
      | { update: UpdateSession<S>; data: S; status: "authenticated" }
      | { update: UpdateSession<S>; data: null; status: "unauthenticated" | "loading" }

/** The context SessionProvider fills; `useSession` reads it. */
export const SessionContext: Context<SessionContextValue | undefined> = createContext<SessionContextValue | undefined>(
  undefined,
)

/** Props of SessionProvider. */
export interface SessionProviderProps {
  children?: ReactNode
  /** The session the server already read (skips the first fetch); `null` means signed out, undefined fetches it. */
  session?: Session | null
  /** Path of the auth routes (sets the client's basePath for the page); default `/api/auth`. */
  basePath?: string
  /** Refetch the session every this many seconds while signed in (0, the default, never polls). */
  refetchInterval?: number
  /** Refetch when the tab becomes visible again (default true). */
  refetchOnWindowFocus?: boolean
  /** `false` skips the interval and focus refetches while the browser is offline (`navigator.onLine`). */
  refetchWhenOffline?: false
}

/**
 * Keeps the session for the components below it: fetched once (unless `session` is given), refetched on focus, on
 * `refetchInterval`, and whenever this page or another tab signs in, signs out or updates the session.
 */
export function SessionProvider(props: SessionProviderProps): ReactElement {
  const { children, basePath, refetchInterval = 0, refetchOnWindowFocus = true, refetchWhenOffline } = props
  // During render, so the children's first effects already use it (as next-auth/react does).
  if (basePath !== undefined) configure({ basePath })
  const [session, setSession] = useState<Session | null | undefined>(props.session)
  const [loading, setLoading] = useState(props.session === undefined)
  const current = useRef(session)
  current.current = session
  // Every fetch and every applied session takes a number; an answer applies only if nothing newer came since.
  const generation = useRef(0)
  const alive = useRef(false)
  const updating = useRef(false)

  const apply = useCallback((next: Session | null) => {
    generation.current += 1
    current.current = next
    setSession(next)
    setLoading(false)
  }, [])

  const refetch = useCallback(async (): Promise<void> => {
    const mine = ++generation.current
    const read = await fetchSession()
    if (!alive.current || mine !== generation.current) return
    // A failed request keeps what is shown; only a first load with no answer settles on "signed out".
    if (read.ok) apply(read.session)
    else if (current.current === undefined) apply(null)
  }, [apply])

  const mayRefetch = useCallback(
    () => refetchWhenOffline !== false || typeof navigator === "undefined" || navigator.onLine,
    [refetchWhenOffline],
  )

  useEffect(() => {
    alive.current = true
    if (current.current === undefined) void refetch()
    const stop = subscribe((change: SessionChange) => {
      if (!alive.current) return
      if (change.session !== undefined) {
        apply(change.session)
        return
      }
      return refetch()
    })
    return () => {
      alive.current = false
      stop()
    }
  }, [apply, refetch])

  // A session handed down again by the server (e.g. after a server navigation) replaces the one shown.
  useEffect(() => {
    if (props.session !== undefined && alive.current) apply(props.session)
  }, [props.session, apply])

  useEffect(() => {
    if (!refetchOnWindowFocus) return
    const onVisibility = (): void => {
      if (document.visibilityState === "visible" && mayRefetch()) void refetch()
    }
    document.addEventListener("visibilitychange", onVisibility)
    return () => document.removeEventListener("visibilitychange", onVisibility)
  }, [refetchOnWindowFocus, mayRefetch, refetch])

  useEffect(() => {
    if (!(refetchInterval > 0)) return
    const timer = setInterval(() => {
      if (current.current && mayRefetch()) void refetch()
    }, refetchInterval * 1000)
    return () => clearInterval(timer)
  }, [refetchInterval, mayRefetch, refetch])

  const update = useCallback<UpdateSession>(async (data) => {
    if (updating.current) return undefined
    updating.current = true
    setLoading(true)
    try {
      // Both helpers hand the new session to every SessionProvider of the page, this one included.
      return data === undefined ? await getSession({ broadcast: true }) : await updateSession(data)
    } finally {
      updating.current = false
      if (alive.current) setLoading(false)
    }
  }, [])

  const value = useMemo<SessionContextValue>(() => {
    if (loading || session === undefined) return { data: null, status: "loading", update }
    return session
      ? { data: session, status: "authenticated", update }
      : { data: null, status: "unauthenticated", update }
  }, [session, loading, update])

  return createElement(SessionContext.Provider, { value }, children)
}

/** Options of `useSession`. */
export interface UseSessionOptions<R extends boolean> {
  /** The page needs a session: when signed out, call `onUnauthenticated` or go to the sign-in page. */
  required?: R
  /** What to do instead of going to the sign-in page when `required` and signed out. */
  onUnauthenticated?: () => void
}

/**
 * The session and its status ("loading" | "authenticated" | "unauthenticated") from the nearest SessionProvider,
 * and `update`. With `required: true`, a signed-out user is sent to the sign-in page (or `onUnauthenticated` runs).
 * A boolean type argument keeps next-auth/react's meaning (`useSession<true>()`: `required`).
 */
export function useSession<R extends boolean = false>(options?: UseSessionOptions<R>): SessionContextValue<R>
/**
 * The same, with the session typed `S`: `useSession<InferSession<typeof config>>()`, the server config imported as a
 * type only (`import type`). The type is not checked at run time.
 */
export function useSession<S, R extends boolean = false>(options?: UseSessionOptions<R>): SessionContextValue<R, S>
/**
 * next-auth/react's signature once more, last: `ReturnType<typeof useSession>` and `Parameters<…>` read the last
 * overload, and keep their meaning (the session typed `Session`). Calls never reach it (the first one matches first).
 */
export function useSession<R extends boolean = false>(options?: UseSessionOptions<R>): SessionContextValue<R>
export function useSession(options?: UseSessionOptions<boolean>): SessionContextValue<boolean, unknown> {
  const value = useContext(SessionContext)
  if (!value)
    throw new AuthError(
      "useSession() was called outside a <SessionProvider>: wrap your app (or this component) in SessionProvider from gatehouse/react.",
    )
  const mustLeave = useRequiredSession(options, value.status, () => authUrl("signin"))
  if (mustLeave) return { data: null, status: "loading", update: value.update }
  return value
}
