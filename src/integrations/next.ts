// gatehouse/next: next-auth v5's API for Next.js 15 and 16 (NextAuth → handlers, auth, signIn, signOut, unstable_update)
// as a front door to the one pipeline, on Node.js and on Next's Edge runtime alike. The core is imported on first use.
import { makeNextAuth } from "./next/api.js"

export type { AuthRouteHandler, NextAuthAuth, NextAuthFactory, NextAuthResult } from "./next/api.js"
export type { AuthorizedCallback, NextAuthConfig, NextAuthConfigInput } from "./next/config.js"
export type { AuthorizationParams, SignInOptions, SignOutOptions } from "./next/actions.js"
export type { AuthHandler, AuthHandlerResult, NextAuthRequest } from "./next/request-auth.js"
export { AuthError, CredentialsSignin } from "../errors.js"
export { customFetch } from "../symbols.js"
export type { Account, DefaultSession, JWT, Profile, Session, User } from "../types.js"
export type { InferJWT, InferSession } from "../infer.js"

/**
 * Sets up Gatehouse for a Next.js app, as next-auth v5's NextAuth does. `config` may be a function of the request
 * (undefined outside one: server components, server actions), called per use. The config object is never changed:
 * environment defaults (AUTH_SECRET, AUTH_URL's path, trustHost) go into a copy made once per object.
 */
export const NextAuth = makeNextAuth(() => import("./next/core.js"))

export default NextAuth
