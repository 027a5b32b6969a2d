// Next 16 proxy: it runs on Node.js, before every page its matcher lets in (not /api, not Next's static files), and
// callbacks.authorized in auth.ts decides: /protected needs a session. The same on Next's Edge runtime, as Next 15
// and next-auth's example have it: a middleware.ts with `export { auth as middleware } from "./auth"` and this config.
export { auth as proxy } from "./auth"

export const config = {
  matcher: ["/((?!api|_next/static|_next/image|favicon.ico).*)"],
}
