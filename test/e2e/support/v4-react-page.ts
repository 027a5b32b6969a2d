// Browser entry of the /v4/* test pages: a SessionProvider app on gatehouse/v4/react whose state the tests read from
// the DOM. test/e2e/support/v4-react-kit.ts bundles it twice: as written, and with the import of gatehouse/v4/react
// sent to next-auth 4.24.15's next-auth/react, so the same page runs on both libraries.
// The app, its paths and query are session-page.ts's (/v4/app, /v4/required).
import { createElement, useEffect } from "react"
import type { ReactElement } from "react"
import * as v4 from "../../../src/react/v4/index.js"
import type { UpdateSession } from "../../../src/react/v4/index.js"
import { mountSessionPage } from "./session-page.js"

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

const { useSession } = v4
window.v4 = v4
window.v4History = []

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

mountSessionPage(v4, "/v4/required", useRecorded)
