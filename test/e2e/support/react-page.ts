// Browser entry of the /react/* test pages: a SessionProvider app whose state the tests read from the DOM
// (session-page.ts: /react/app, /react/required and the query they take).
import { createElement, useEffect } from "react"
import type { ReactElement } from "react"
import * as client from "../../../src/client/index.js"
import { SessionProvider, useSession } from "../../../src/react/index.js"
import { mountSessionPage } from "./session-page.js"

window.gatehouse = client
window.statusHistory = []

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

mountSessionPage({ SessionProvider, useSession }, "/react/required", useRecorded)
