// useSession's `required` option, the one rule gatehouse/react and gatehouse/v4/react share: a signed-out user of a
// page that needs a session reads as "loading" and is sent to the sign-in page (or the app's onUnauthenticated runs).
import { useEffect, useRef } from "react"
import { navigate } from "../client/config.js"

/** What useSession takes for a page that needs a session. */
interface RequiredOptions {
  required?: boolean
  onUnauthenticated?: () => void
}

/**
 * Whether useSession must answer "loading" because the page needs a session and there is none. Then, once per
 * sign-out, `onUnauthenticated` runs (the one of the latest render), else the browser goes to `signInPage()` with
 * `error=SessionRequired` and this page as the callbackUrl.
 */
export function useRequiredSession(
  options: RequiredOptions | undefined,
  status: "loading" | "authenticated" | "unauthenticated",
  signInPage: () => string,
): boolean {
  const mustLeave = options?.required === true && status === "unauthenticated"
  const onUnauthenticated = useRef(options?.onUnauthenticated)
  onUnauthenticated.current = options?.onUnauthenticated
  // biome-ignore lint/correctness/useExhaustiveDependencies: signInPage is read when the effect runs; the new function each render is no reason to leave again
  useEffect(() => {
    if (!mustLeave) return
    if (onUnauthenticated.current) onUnauthenticated.current()
    else
      navigate(
        `${signInPage()}?${new URLSearchParams({ error: "SessionRequired", callbackUrl: window.location.href })}`,
      )
  }, [mustLeave])
  return mustLeave
}
