// The core of gatehouse/next, imported by next.ts on first use: the route handlers, the session reads (next/headers,
// a web Request, a pages-router node request) and the server actions. Only the pages-router reads touch node:http
// objects, and only when given one; everything else runs on the Edge runtime too.
import type { IncomingMessage, ServerResponse } from "node:http"
import type { NextRequest } from "next/server.js"
import { Auth } from "../../auth.js"
import type { Session } from "../../types.js"
import { appendSetCookies, nodeArrival, nodeHeaderReader } from "../node-io.js"
import { readServerSession } from "../session-read.js"
import {
  type AuthorizationParams,
  type SignInOptions,
  type SignOutOptions,
  signInAction,
  signOutAction,
  updateAction,
} from "./actions.js"
import { configFor, type NextAuthConfigInput } from "./config.js"
import { type AuthHandler, handleRequestAuth } from "./request-auth.js"
import { currentRequestSource, setSerializedCookies } from "./runtime.js"

/** One request to the auth endpoints, through Auth() with the derived config. */
export async function routeRequest(config: NextAuthConfigInput, request: NextRequest): Promise<Response> {
  const derived = await configFor(config, request)
  return Auth(request, derived.config)
}

/** auth() in a server component, route handler or server action: the session of the request next/headers sees. */
export async function sessionOfCurrentRequest(config: NextAuthConfigInput): Promise<Session | null> {
  const derived = await configFor(config, undefined)
  const read = await readServerSession(await currentRequestSource(), derived.config)
  await setSerializedCookies(read.setCookies)
  return read.session
}

/** auth(req, res) / auth({ req, res }) in the pages router: a re-issued cookie is added to `res` when it can be. */
export async function sessionOfNodeRequest(
  config: NextAuthConfigInput,
  req: IncomingMessage,
  res: ServerResponse | undefined,
): Promise<Session | null> {
  const derived = await configFor(config, undefined)
  const read = await readServerSession({ url: nodeArrival(req), header: nodeHeaderReader(req) }, derived.config)
  if (res && read.setCookies.length && !res.headersSent) appendSetCookies(res, read.setCookies)
  return read.session
}

/** auth(request) as middleware/proxy, or a handler wrapped by auth(handler). */
export async function requestAuth<Context>(
  config: NextAuthConfigInput,
  request: NextRequest,
  context: Context,
  handler?: AuthHandler<Context>,
): Promise<Response> {
  return handleRequestAuth(await configFor(config, request), request, context, handler)
}

/** The server-action signIn. */
export async function signIn(
  config: NextAuthConfigInput,
  provider?: string,
  options?: SignInOptions,
  authorizationParams?: AuthorizationParams,
): Promise<string> {
  return signInAction(await configFor(config, undefined), provider, options, authorizationParams)
}

/** The server-action signOut. */
export async function signOut(config: NextAuthConfigInput, options?: SignOutOptions): Promise<{ redirect: string }> {
  return signOutAction(await configFor(config, undefined), options)
}

/** The server-action unstable_update. */
export async function update(
  config: NextAuthConfigInput,
  data: Parameters<typeof updateAction>[1],
): Promise<Session | null> {
  return updateAction(await configFor(config, undefined), data)
}
