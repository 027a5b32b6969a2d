// AuthResponse -> web Response: status, Location, Set-Cookie (merged once, here), JSON or HTML body.
import { serializeCookie } from "../cookies/policy.js"
import type { ResponseInternal } from "../types.js"

export const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ "Content-Type": "application/json" })
export const NO_STORE_JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "Content-Type": "application/json",
  "Cache-Control": "private, no-cache, no-store",
  Expires: "0",
  Pragma: "no-cache",
})
export const HTML_HEADERS: Readonly<Record<string, string>> = Object.freeze({ "Content-Type": "text/html" })

/**
 * Converts the internal response. With `returnRedirect` (the X-Auth-Return-Redirect header) a redirect
 * becomes 200 JSON `{url}` that keeps its other headers, as Auth.js clients expect.
 */
export function toResponse(res: ResponseInternal, returnRedirect: boolean): Response {
  const init: [string, string][] = res.headers ? Object.entries(res.headers) : []
  if (res.cookies) for (const cookie of res.cookies) init.push(["Set-Cookie", serializeCookie(cookie)])
  if (res.redirect !== undefined) {
    init.push(["Location", res.redirect])
    if (returnRedirect) {
      init.push(["Content-Type", "application/json"])
      return new Response(JSON.stringify({ url: res.redirect }), { status: 200, headers: init })
    }
    return new Response(null, { status: res.status ?? 302, headers: init })
  }
  const isJson = res.headers?.["Content-Type"] === "application/json"
  const body = isJson ? JSON.stringify(res.body ?? null) : (res.body as string | null | undefined) ?? null
  return new Response(body, { status: res.status ?? 200, headers: init })
}
