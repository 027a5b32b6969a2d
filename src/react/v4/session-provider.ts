// SessionProvider and useSession of gatehouse/v4/react, with next-auth 4's behaviour: the session fetched on mount
// (unless given), refetched when another tab writes a session message, on focus and on `refetchInterval` while signed
// in; `update(data)` POSTs /session; `data` is the session held, also while the status reads "loading".
"use client"
import { createContext, createElement, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react"
import type { Context, ReactElement } from "react"
import { AuthError } from "../../errors.js"
import type { Session } from "../../types.js"
import { apiBaseUrl, postSessionUpdate, readSession, setBasePath } from "./client.js"
import { postSessionMessage, receiveSessionMessages, registerLocalSession } from "./sync.js"
import { useRequiredSession } from "../required.js"
import type { SessionContextValue, SessionProviderProps, UpdateSession, UseSessionOptions } from "./types.js"

/** The context SessionProvider fills; `useSession` reads it. */
export const SessionContext: Context<SessionContextValue | undefined> = createContext<SessionContextValue | undefined>(
  undefined,
)

/** Why the session is fetched: mount, another tab's message (or this page's signIn/signOut), focus, or the interval. */
type Reason = "mount" | "storage" | "focus" | "poll"

/** `navigator.onLine`, followed through the online and offline events. */
function useOnline(): boolean {
  const [online, setOnline] = useState(() => typeof navigator === "undefined" || navigator.onLine)
  useEffect(() => {
    const on = (): void => setOnline(true)
    const off = (): void => setOnline(false)
    window.addEventListener("online", on)
    window.addEventListener("offline", off)
    return () => {
      window.removeEventListener("online", on)
      window.removeEventListener("offline", off)
    }
  }, [])
  return online
}

/**
 * Keeps the session for the components below it. Fetched on mount unless `session` is given (then, as next-auth 4,
 * nothing is fetched until an event), refetched when another tab posts a session message, when this page's signIn or
 * signOut completes, on focus and every `refetchInterval` seconds while signed in. The mount fetch and the focus and
 * interval fetches tell the other tabs (next-auth 4's `getSession()` broadcast); a refetch caused by a message does not.
 */
export function SessionProvider(props: SessionProviderProps): ReactElement {
  const { children, basePath, refetchInterval, refetchWhenOffline, refetchOnWindowFocus = true } = props
  // During render, so the children's first effects already use it (as next-auth 4 does).
  if (basePath) setBasePath(basePath)

  const [session, setSession] = useState<Session | null | undefined>(props.session)
  const [loading, setLoadingState] = useState(props.session === undefined)
  // The loading flag as of now (the state shows it from the next render on), for update's check.
  const loadingNow = useRef(loading)
  const setLoading = useCallback((value: boolean) => {
    loadingNow.current = value
    setLoadingState(value)
  }, [])
  const current = useRef(session)
  // Every fetch and every applied session takes a number; an answer applies only if nothing newer came since.
  const generation = useRef(0)
  const alive = useRef(false)

  const apply = useCallback((next: Session | null) => {
    generation.current += 1
    current.current = next
    setSession(next)
  }, [])

  const refetch = useCallback(
    async (reason: Reason): Promise<void> => {
      // Signed out, a focus or poll has nothing to look for: a sign-in elsewhere arrives as a message.
      if ((reason === "focus" || reason === "poll") && current.current === null) return
      const mine = ++generation.current
      const read = await readSession()
      if (reason !== "storage") postSessionMessage("getSession")
      if (!alive.current || mine !== generation.current) return
      // A failed request keeps what is shown; only a first load with no answer settles on "signed out".
      if (read.ok) apply(read.value)
      else if (current.current === undefined) apply(null)
      setLoading(false)
    },
    [apply, setLoading],
  )

  useEffect(() => {
    alive.current = true
    if (current.current === undefined) void refetch("mount")
    const stopMessages = receiveSessionMessages(() => void refetch("storage"))
    const stopLocal = registerLocalSession({ refetch: () => refetch("storage") })
    return () => {
      alive.current = false
      stopMessages()
      stopLocal()
    }
  }, [refetch])

  // A session handed down again by the server (a page's getServerSideProps after a navigation) replaces the one shown.
  useEffect(() => {
    if (props.session !== undefined && alive.current && props.session !== current.current) {
      apply(props.session)
      setLoading(false)
    }
  }, [props.session, apply, setLoading])

  useEffect(() => {
    if (!refetchOnWindowFocus) return
    const onVisibility = (): void => {
      if (document.visibilityState === "visible") void refetch("focus")
    }
    document.addEventListener("visibilitychange", onVisibility, false)
    return () => document.removeEventListener("visibilitychange", onVisibility, false)
  }, [refetchOnWindowFocus, refetch])

  const online = useOnline()
  const mayPoll = refetchWhenOffline !== false || online
  useEffect(() => {
    if (!refetchInterval || !mayPoll) return
    const timer = setInterval(() => {
      if (current.current) void refetch("poll")
    }, refetchInterval * 1000)
    return () => clearInterval(timer)
  }, [refetchInterval, mayPoll, refetch])

  const update = useCallback<UpdateSession>(
    async (data) => {
      // As next-auth 4: nothing to update while loading or signed out (the answer is then undefined).
      if (loadingNow.current || !current.current) return undefined as unknown as null
      setLoading(true)
      try {
        const next = await postSessionUpdate(data)
        if (next && alive.current) {
          apply(next)
          postSessionMessage("getSession")
        }
        return next
      } finally {
        if (alive.current) setLoading(false)
      }
    },
    [apply, setLoading],
  )

  const value = useMemo(
    () =>
      // `data` is the session held even while loading (undefined before the first answer), as next-auth 4 has it.
      ({
        data: session,
        status: loading ? "loading" : session ? "authenticated" : "unauthenticated",
        update,
      }) as SessionContextValue,
    [session, loading, update],
  )

  return createElement(SessionContext.Provider, { value }, children)
}

/**
 * The session and its status ("loading" | "authenticated" | "unauthenticated") from the nearest SessionProvider,
 * and `update`. With `required: true`, a signed-out user reads as "loading" and is sent to the sign-in page with
 * `error=SessionRequired` (or `onUnauthenticated` runs instead, once per sign-out).
 */
export function useSession<R extends boolean>(options?: UseSessionOptions<R>): SessionContextValue<R> {
  const value = useContext(SessionContext)
  if (!value)
    throw new AuthError(
      "useSession() was called outside a <SessionProvider>: wrap your app (or this component) in SessionProvider from gatehouse/v4/react.",
    )
  const mustLeave = useRequiredSession(options, value.status, () => `${apiBaseUrl()}/signin`)
  if (mustLeave) return { data: value.data, status: "loading", update: value.update } as SessionContextValue<R>
  return value as SessionContextValue<R>
}
