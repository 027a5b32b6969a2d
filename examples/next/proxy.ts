// Next 16 proxy (Next 15: middleware.ts with `export const config = { runtime: "nodejs", matcher }` and
// `export { auth as middleware }`): the pages it matches need a session, through callbacks.authorized in auth.ts.
export { auth as proxy } from "./auth"

export const config = {
  matcher: ["/protected/:path*"],
}
