// gatehouse/v4/next: next-auth 4's `next-auth/next` module: NextAuth (default and named), getServerSession and
// unstable_getServerSession, the same functions gatehouse/v4 exports.
import { NextAuth } from "./handler.js"

export { NextAuth } from "./handler.js"
export type { NextApiRequest, NextApiResponse, RouteHandlerContext } from "./handler.js"
export { getServerSession, unstable_getServerSession } from "./session.js"
export type { GetServerSessionOptions, GetServerSessionParams, GetServerSidePropsRequest } from "./session.js"

export default NextAuth
