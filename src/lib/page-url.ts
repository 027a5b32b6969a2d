// A configured page's URL (`pages.signIn`, `pages.error`, `pages.newUser`, …) with parameters added: the pages are the
// app's, so they may hold a query of their own or be on another host.

/** `page` with `query` added after `&` when the page has a query of its own, else after `?`; `page` when empty. */
export function withQuery(page: string, query: string | URLSearchParams): string {
  const text = typeof query === "string" ? query : query.toString()
  if (!text) return page
  return `${page}${page.includes("?") ? "&" : "?"}${text}`
}

/** A scheme at the start: the page is an absolute URL. */
const ABSOLUTE_URL = /^[a-z][a-z\d+.-]*:/i

/**
 * A page's URL on the request's origin. A page given as an absolute URL (`https://…/login`) is used as it is: Auth.js
 * puts the origin before it whatever it holds, which makes `https://apphttps://…`.
 */
export function onOrigin(origin: string, page: string): string {
  return ABSOLUTE_URL.test(page) ? page : `${origin}${page}`
}
