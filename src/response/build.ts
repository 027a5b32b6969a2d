// AuthResponse -> web Response: status, Location, Set-Cookie (merged once, here), JSON or HTML body.
import { serializeCookie } from "../cookies/policy.js"
import type { ResponseInternal } from "../types.js"
import { merged } from "../lib/merged.js"

export const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ "Content-Type": "application/json" })
export const NO_STORE_JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "Content-Type": "application/json",
  "Cache-Control": "private, no-cache, no-store",
  Expires: "0",
  Pragma: "no-cache",
})

/** An answer ready for any server: status, headers (shared: copy before changing), Set-Cookie values kept apart, body text. */
export interface RenderedResponse {
  status: number
  headers: Readonly<Record<string, string>>
  setCookies: string[]
  body: string | null
}

const RETURN_REDIRECT_HEADERS: Readonly<Record<string, string>> = JSON_HEADERS

/**
 * An answer as next-auth 4 sends it: a redirect is a 302 whatever status the action gave it, unless the client asked
 * for JSON (`json=true` in the body, or X-Auth-Return-Redirect), then `{ url }` with that status (200 unless the
 * action gave one: a failed credentials sign-in answers 401, a refused one 403) and no Location.
 */
export function v4Answer(res: ResponseInternal, json: boolean): ResponseInternal {
  if (res.redirect === undefined) return res
  const { redirect, status, headers, cookies } = res
  if (!json) return { redirect, ...(headers ? { headers } : {}), ...(cookies ? { cookies } : {}) }
  return {
    status: status ?? 200,
    headers: merged(headers ?? {}, JSON_HEADERS),
    body: { url: redirect },
    ...(cookies ? { cookies } : {}),
  }
}

/** Whether the client asked for `{ url }` instead of a redirect, or how to find out: only a redirect needs to know. */
export type ReturnRedirect = boolean | (() => boolean)

/**
 * Renders the internal response once, for every front door. With `returnRedirect` (the X-Auth-Return-Redirect
 * header) a redirect becomes 200 JSON `{url}` that keeps its other headers, as Auth.js clients expect.
 */
export function renderResponse(res: ResponseInternal, returnRedirect: ReturnRedirect): RenderedResponse {
  const setCookies = res.cookies ? res.cookies.map(serializeCookie) : []
  if (res.redirect !== undefined) {
    if (typeof returnRedirect === "function") returnRedirect = returnRedirect()
    const base = res.headers ?? {}
    if (returnRedirect) {
      // One copy: the action's headers, then the JSON type, then Location (as a merge of each in turn would give).
      const headers: Record<string, string> = Object.assign(merged(base, RETURN_REDIRECT_HEADERS), {
        Location: res.redirect,
      })
      return { status: 200, headers, setCookies, body: JSON.stringify({ url: res.redirect }) }
    }
    const headers: Record<string, string> = merged(base, { Location: res.redirect })
    return { status: res.status ?? 302, headers, setCookies, body: null }
  }
  const headers = res.headers ?? {}
  const isJson = headers["Content-Type"] === "application/json"
  const body = isJson ? JSON.stringify(res.body ?? null) : ((res.body as string | null | undefined) ?? null)
  return { status: res.status ?? 200, headers, setCookies, body }
}

/**
 * The internal response as a web Response; `head` leaves the body out (the answer to a HEAD). Without a body (a
 * redirect, a HEAD) the headers are appended to the new Response's own Headers, which is what the Fetch standard's
 * Response constructor does with a headers init ("fill"), without building and converting a list of [name, value]
 * pairs first. With a body they go in the init, so the constructor sees the Content-Type and adds no text/plain one.
 */
export function toResponse(res: ResponseInternal, returnRedirect: ReturnRedirect, head = false): Response {
  const rendered = renderResponse(res, returnRedirect)
  const body = head ? null : rendered.body
  if (body === null) {
    const response = new Response(null, { status: rendered.status })
    const headers = response.headers
    const fields = rendered.headers
    for (const name of Object.keys(fields)) headers.append(name, fields[name] as string)
    for (const cookie of rendered.setCookies) headers.append("Set-Cookie", cookie)
    return response
  }
  const init: [string, string][] = Object.entries(rendered.headers)
  for (const cookie of rendered.setCookies) init.push(["Set-Cookie", cookie])
  return new Response(body, { status: rendered.status, headers: init })
}
