// getServerSession of gatehouse/v4 (next-auth 4): the session of the current request, read from its Cookie header
// straight to the session strategy (session-read.ts, GET /session's rules: jwt and session callbacks, the cookie
// re-issued when due). `(req, res, options)` in pages-router API routes and getServerSideProps writes the re-issued
// cookie to `res`; `(options)` in the app router reads the request through next/headers and drops `expires`.
import type { IncomingMessage, ServerResponse } from "node:http"
import { reportConfigError } from "../../config/report.js"
import { resolveConfig } from "../../config/resolve.js"
import { readEnv } from "../../lib/env.js"
import type { Session } from "../../types.js"
import { currentRequestSource, setSerializedCookies } from "../next/runtime.js"
import { appendSetCookies, nodeArrival, nodeHeaderReader, nodeHeaders } from "../node-io.js"
import { readServerSession } from "../session-read.js"
import { type PartialAuthOptions, type V4Config, v4Config } from "./config.js"
import type { NextApiRequest, NextApiResponse } from "./handler.js"
import type { AuthOptions, CallbacksOptions } from "./types.js"

/** What getServerSession takes: AuthOptions, all optional, with a session callback that may return any shape. */
export type GetServerSessionOptions = Partial<Omit<AuthOptions, "callbacks">> & {
  callbacks?: Omit<AuthOptions["callbacks"], "session"> & {
    // biome-ignore lint/suspicious/noExplicitAny: next-auth 4 lets this callback return any shape; getServerSession's result type follows it
    session?: (...args: Parameters<CallbacksOptions["session"]>) => any
  }
}

/** A getServerSideProps request: the node request with the cookies Next parsed. */
export type GetServerSidePropsRequest = IncomingMessage & { cookies: Partial<Record<string, string>> }

/** The argument lists getServerSession accepts (next-auth 4's). */
export type GetServerSessionParams<O extends GetServerSessionOptions> =
  | [GetServerSidePropsRequest, ServerResponse, O]
  | [NextApiRequest, NextApiResponse, O]
  | [O]
  | []

/** The session's type: what a session callback the options' type declares returns, else Session (next-auth 4's rule). */
type SessionOf<O extends GetServerSessionOptions> = O["callbacks"] extends {
  // biome-ignore lint/suspicious/noExplicitAny: matches any session callback's parameters
  session: (...args: any[]) => infer U
}
  ? U
  : Session

/** Options for the no-argument form; one object, so its derived config is made once. */
const NO_OPTIONS: PartialAuthOptions = {}

/** What next-auth 4's getServerSession rejects with when its config is refused (the reason goes to the log). */
const CONFIGURATION_MESSAGE =
  "There is a problem with the server configuration. Check the server logs for more information."

/**
 * The config for a read. A refused one (no secret, say) is logged once, as the routes log it (`NO_SECRET` through a
 * v4 logger), and rejects as next-auth 4's getServerSession does: an Error with its generic message, whose `cause` is
 * Gatehouse's typed error.
 */
function configFor(options: PartialAuthOptions): V4Config {
  const config = v4Config(options)
  const resolved = resolveConfig(config)
  if (resolved.error) {
    reportConfigError(resolved)
    throw new Error(CONFIGURATION_MESSAGE, { cause: resolved.error })
  }
  return config
}

/** next-auth 4 answers null for a session object without fields (a session callback that returned `{}`). */
function nonEmpty(session: Session | null): Session | null {
  return session !== null && typeof session === "object" && Object.keys(session).length > 0 ? session : null
}

/**
 * The session of the current request, or null when signed out. Pages router: `getServerSession(req, res,
 * authOptions)`; app router (server components, route handlers, server actions): `getServerSession(authOptions)`,
 * which leaves `expires` out, as next-auth 4 does. Rejects only for a broken config, with next-auth 4's generic
 * configuration message (the Gatehouse error as its `cause`, and in the log).
 */
export async function getServerSession<O extends GetServerSessionOptions, R = SessionOf<O>>(
  ...args: GetServerSessionParams<O>
): Promise<R | null> {
  if (args.length <= 1) {
    const config = configFor((args[0] as PartialAuthOptions | undefined) ?? NO_OPTIONS)
    const read = await readServerSession(await currentRequestSource(), config)
    // next-auth 4 drops a re-issued cookie here; a route handler or server action can set it, so it is set there.
    await setSerializedCookies(read.setCookies)
    const session = nonEmpty(read.session)
    if (session === null) return null
    const { expires: _expires, ...rest } = session
    return rest as R
  }
  const [req, res, options] = args as [IncomingMessage, ServerResponse, PartialAuthOptions]
  const read = await readServerSession(
    { url: nodeArrival(req), header: nodeHeaderReader(req), headers: () => nodeHeaders(req) },
    configFor(options),
  )
  if (read.setCookies.length && !res.headersSent) appendSetCookies(res, read.setCookies)
  return nonEmpty(read.session) as R | null
}

let deprecationShown = false

/** @deprecated Renamed to `getServerSession` (next-auth 4.x); the same function, with a one-time warning. */
export async function unstable_getServerSession<O extends GetServerSessionOptions, R = SessionOf<O>>(
  ...args: GetServerSessionParams<O>
): Promise<R | null> {
  if (!deprecationShown && readEnv("NODE_ENV") !== "production") {
    deprecationShown = true
    console.warn("`unstable_getServerSession` has been renamed to `getServerSession`.")
  }
  return getServerSession<O, R>(...args)
}
