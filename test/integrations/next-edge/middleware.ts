// The official next-auth example's middleware.ts, unchanged but for the import's module name: no `runtime` in its
// config, so Next 15 and 16 run it on the Edge runtime. next-edge/app.ts copies it into a scratch copy of examples/next.
// @ts-ignore -- "./auth" is examples/next/auth.ts, beside this file only in the scratch app (not in this folder)
export { auth as middleware } from "./auth"

export const config = {
  matcher: ["/((?!api|_next/static|_next/image|favicon.ico).*)"],
}
