// Next 15 stand-in for examples/next/proxy.ts, copied into the scratch app by next15/harness.ts: the same matcher,
// as a middleware on the Node.js runtime (stable since Next 15.5). The same file without `runtime` runs on Edge:
// next-edge/middleware.ts, which next15-app.test.ts builds too.
// @ts-ignore -- "./auth" is examples/next/auth.ts, beside this file only in the scratch app (not in this folder)
export { auth as middleware } from "./auth"

export const config = {
  matcher: ["/((?!api|_next/static|_next/image|favicon.ico).*)"],
  runtime: "nodejs",
}
