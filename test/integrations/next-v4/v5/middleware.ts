// withAuth's place taken by auth(): `callbacks.authorized` in auth.ts decides, on the Edge runtime as before.
export { auth as middleware } from "./auth"

export const config = { matcher: ["/protected/:path*"] }
