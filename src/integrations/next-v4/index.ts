// gatehouse/v4: next-auth 4's `next-auth` module for apps that swap the import: NextAuth (default and named),
// getServerSession, unstable_getServerSession and the option and record types. The session cookie, token format and
// routes are next-auth 4's (the nextAuthV4 marker, docs/migration.md), so signed-in users stay signed in.
import { NextAuth } from "./handler.js"

export { NextAuth } from "./handler.js"
export type { NextApiRequest, NextApiResponse, RouteHandlerContext } from "./handler.js"
export { getServerSession, unstable_getServerSession } from "./session.js"
export type { GetServerSessionOptions, GetServerSessionParams, GetServerSidePropsRequest } from "./session.js"
export type {
  Account,
  AuthAction,
  AuthOptions,
  Awaitable,
  CallbacksOptions,
  CookieOption,
  CookiesOptions,
  DefaultSession,
  DefaultUser,
  EventCallbacks,
  EventType,
  ISODateString,
  LoggerInstance,
  NextAuthOptions,
  OutgoingResponse,
  PagesOptions,
  Profile,
  RequestInternal,
  Session,
  SessionOptions,
  SessionStrategy,
  Theme,
  TokenSet,
  User,
} from "./types.js"

export default NextAuth
