// Browser entry of the /v4/* test pages: a SessionProvider app on gatehouse/v4/react whose state the tests read from
// the DOM. test/e2e/support/v4-react-kit.ts bundles it twice: as written, and with the import of gatehouse/v4/react
// sent to next-auth 4.24.15's next-auth/react, so the same page runs on both libraries.
// /v4/app shows useSession; /v4/required uses required (with onUnauthenticated when ?callback=1).
// Query: basePath, refetchInterval (seconds), focus=0 (refetchOnWindowFocus off).
import { createElement, useEffect } from "react"
import type { ReactElement } from "react"
import { createRoot } from "react-dom/client"
import * as v4 from "../../../src/react/v4/index.js"
import type { SessionProviderProps, UpdateSession } from "../../../src/react/v4/index.js"
import "./page-globals.js"

declare global {
  interface Window {
    /** The module under test: gatehouse/v4/react, or next-auth/react in the oracle's bundle. */
    v4: typeof v4
    /** `useSession().update` of the page's component. */
    v4Update?: UpdateSession
    /** Every `status:name` useSession reported, in order (repeats collapsed): shows `data` while loading too. */
    v4History?: string[]
  }
}

const { SessionProvider, useSession } = v4
const query = new URLSearchParams(window.location.search)
window.v4 = v4
window.v4History = []
window.unauthenticatedCalls = 0

function useRecorded(session: ReturnType<typeof useSession>): ReactElement {
  const { status, data, update } = session
  useEffect(() => {
    window.v4Update = update
  }, [update])
  const name = data?.user?.name ?? ""
  useEffect(() => {
    const history = window.v4History ?? []
    const entry = `${status}:${name}`
    if (history[history.length - 1] !== entry) history.push(entry)
  }, [status, name])
  const version = (data as { version?: unknown } | null | undefined)?.version
  return createElement(
    "div",
    null,
    createElement("p", { id: "status" }, status),
    createElement("p", { id: "name" }, name),
    createElement("p", { id: "version" }, version === undefined ? "" : String(version)),
  )
}

function App(): ReactElement {
  return useRecorded(useSession())
}

function Required(): ReactElement {
  const withCallback = query.get("callback") === "1"
  const session = useSession({
    required: true,
    ...(withCallback
      ? { onUnauthenticated: () => void (window.unauthenticatedCalls = (window.unauthenticatedCalls ?? 0) + 1) }
      : {}),
  })
  return useRecorded(session as ReturnType<typeof useSession>)
}

const view = window.location.pathname.startsWith("/v4/required") ? Required : App
const basePath = query.get("basePath")
const interval = query.get("refetchInterval")
createRoot(document.getElementById("root")!).render(
  createElement(
    SessionProvider,
    {
      ...(basePath ? { basePath } : {}),
      ...(interval ? { refetchInterval: Number(interval) } : {}),
      refetchOnWindowFocus: query.get("focus") !== "0",
    } as SessionProviderProps,
    createElement(view),
  ),
)
document.body.dataset.ready = "1"
