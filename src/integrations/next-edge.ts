// gatehouse/next in the Edge runtime (the "edge-light" export condition): the same API, with no core to load, so an
// Edge bundle holds no node:crypto. Every call answers with the error that names the fix (runtime "nodejs").
import { makeNextAuth } from "./next/api.js"
import { edgeRuntimeError } from "./next/edge.js"

export type { AuthRouteHandler, NextAuthAuth, NextAuthResult } from "./next/api.js"
export type { AuthorizedCallback, NextAuthConfig, NextAuthConfigInput } from "./next/config.js"
export type { AuthorizationParams, SignInOptions, SignOutOptions } from "./next/actions.js"
export type { AuthHandler, AuthHandlerResult, NextAuthRequest } from "./next/request-auth.js"
export { AuthError, CredentialsSignin } from "../errors.js"
export { customFetch } from "../symbols.js"
export type { Account, DefaultSession, JWT, Profile, Session, User } from "../types.js"

/** NextAuth as the Edge runtime sees it: every handler, `auth` and action rejects with the runtime error. */
export const NextAuth = makeNextAuth(() => Promise.reject(edgeRuntimeError()))

export default NextAuth
