// next-auth v4's middleware as it is: withAuth's default export lets a request with a valid session token through
// and sends any other to the sign-in page (307, callbackUrl the page asked for). It runs on the Edge runtime.
export { default } from "gatehouse/v4/middleware"

export const config = { matcher: ["/protected/:path*"] }
