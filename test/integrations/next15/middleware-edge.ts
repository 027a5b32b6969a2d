// The mistake next15-app.test.ts checks Gatehouse's answer to: examples/next's proxy.ts as a Next 15 middleware.ts
// without `runtime: "nodejs"`, so on the Edge runtime (Next 15's default for middleware), which has no node:crypto.
// @ts-ignore -- "./auth" is examples/next/auth.ts, beside this file only in the scratch app (not in this folder)
export { auth as middleware } from "./auth"

export const config = {
  matcher: ["/protected/:path*"],
}
