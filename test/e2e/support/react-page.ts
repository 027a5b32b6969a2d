// Browser entry of the /react/* test pages: a SessionProvider app whose state the tests read from the DOM.
// /react/app shows useSession; /react/required uses required (with onUnauthenticated when ?callback=1).
// Query: basePath, refetchInterval (seconds), focus=0 (refetchOnWindowFocus off).
import { createElement, useEffect } from "react"
import type { ReactElement } from "react"
import { createRoot } from "react-dom/client"
import * as client from "../../../src/client/index.js"
import { SessionProvider, useSession } from "../../../src/react/index.js"
import "./page-globals.js"

const query = new URLSearchParams(window.location.search)
window.gatehouse = client
window.statusHistory = []
window.unauthenticatedCalls = 0

function Show(props: { status: string; name: string; version: string }): ReactElement {
  return createElement(
    "div",
    null,
    createElement("p", { id: "status" }, props.status),
    createElement("p", { id: "name" }, props.name),
    createElement("p", { id: "version" }, props.version),
  )
}

function useRecorded(session: ReturnType<typeof useSession>): ReactElement {
  const { status, data, update } = session
  useEffect(() => {
    window.sessionUpdate = update
  }, [update])
  useEffect(() => {
    const history = window.statusHistory ?? []
    if (history[history.length - 1] !== status) history.push(status)
  }, [status])
  const version = (data as { version?: unknown } | null)?.version
  return createElement(Show, {
    status,
    name: data?.user?.name ?? "",
    version: version === undefined ? "" : String(version),
  })
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

const view = window.location.pathname.startsWith("/react/required") ? Required : App
const basePath = query.get("basePath")
const interval = query.get("refetchInterval")
createRoot(document.getElementById("root")!).render(
  createElement(
    SessionProvider,
    {
      ...(basePath ? { basePath } : {}),
      ...(interval ? { refetchInterval: Number(interval) } : {}),
      refetchOnWindowFocus: query.get("focus") !== "0",
    },
    createElement(view),
  ),
)
document.body.dataset.ready = "1"
