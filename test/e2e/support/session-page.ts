// What the /react/* and /v4/* test pages share: the app (/…/app shows useSession; /…/required uses required, with
// onUnauthenticated when ?callback=1) under a SessionProvider the query configures (basePath, refetchInterval in
// seconds, focus=0 for refetchOnWindowFocus off). The library comes in as an argument, so v4-react-kit.ts can still
// swap the v4 page's one import for next-auth/react.
import { type ComponentType, createElement, type ReactElement, type ReactNode } from "react"
import { createRoot } from "react-dom/client"
import "./page-globals.js"

/** The two parts of a React session library the page uses. */
export interface SessionLibrary<S> {
  // The providers' props types differ per library; the page passes only the props both take.
  SessionProvider: unknown
  useSession(options?: { required: true; onUnauthenticated?: () => void }): S
}

/** The props the page gives SessionProvider. */
type ProviderProps = {
  basePath?: string
  refetchInterval?: number
  refetchOnWindowFocus: boolean
  children?: ReactNode
}

/** onUnauthenticated of /…/required?callback=1: counts its calls for the tests. */
function countUnauthenticated(): void {
  window.unauthenticatedCalls = (window.unauthenticatedCalls ?? 0) + 1
}

/** The page's component: useSession (with `required` on the required path) shown through `show`. */
function SessionView<S>(props: {
  library: SessionLibrary<S>
  required: boolean
  callback: boolean
  show: (session: S) => ReactElement
}): ReactElement {
  const { library, required, callback, show } = props
  if (!required) return show(library.useSession())
  return show(library.useSession({ required: true, ...(callback ? { onUnauthenticated: countUnauthenticated } : {}) }))
}

/** Renders the page: `show` turns a useSession answer into the DOM the tests read (it may use hooks). */
export function mountSessionPage<S>(
  library: SessionLibrary<S>,
  requiredPath: string,
  show: (session: S) => ReactElement,
): void {
  const query = new URLSearchParams(window.location.search)
  window.unauthenticatedCalls = 0
  const required = window.location.pathname.startsWith(requiredPath)
  const basePath = query.get("basePath")
  const interval = query.get("refetchInterval")
  createRoot(document.getElementById("root")!).render(
    createElement(
      library.SessionProvider as ComponentType<ProviderProps>,
      {
        ...(basePath ? { basePath } : {}),
        ...(interval ? { refetchInterval: Number(interval) } : {}),
        refetchOnWindowFocus: query.get("focus") !== "0",
      },
      createElement(SessionView<S>, { library, required, callback: query.get("callback") === "1", show }),
    ),
  )
  document.body.dataset.ready = "1"
}
