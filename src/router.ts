// (action, method) -> guarded handler. Guards: allowed methods (405, from actions/table.ts), known provider, CSRF on state-changing POSTs.
import { InvalidProvider, MissingCSRF, UnknownAction } from "./errors.js"
import type { ResolvedConfig, ResolvedProvider } from "./config/resolve.js"
import type { AuthRequest } from "./request/parse.js"
import { callback } from "./actions/callback.js"
import { csrf } from "./actions/csrf.js"
import { errorPageAction, signInPageAction, signOutPageAction, verifyRequestPageAction } from "./actions/pages.js"
import { providers } from "./actions/providers.js"
import { session } from "./actions/session.js"
import { signIn } from "./actions/signin.js"
import { signOut } from "./actions/signout.js"
import { isCrossSite, isCsrfValid } from "./security/csrf.js"
import type { AuthAction, Awaitable, ResponseInternal } from "./types.js"
import { actionRule } from "./actions/table.js"

type Handler = () => Awaitable<ResponseInternal>

const POST = ["POST"] as const

function methodNotAllowed(req: AuthRequest, allow: readonly string[]): never {
  throw new UnknownAction(`${req.method} is not allowed on /${req.action}${req.providerId ? `/${req.providerId}` : ""}; use ${allow.join(" or ")}.`, { allow })
}

/**
 * The provider named in the path, looked up in the Map (never on an object, so `__proto__` finds nothing, OA-20).
 * An unknown id is a configuration error (`/error?error=Configuration`), as in Auth.js.
 */
function findProvider(req: AuthRequest, config: ResolvedConfig): ResolvedProvider {
  const provider = req.providerId === undefined ? undefined : config.providers.get(req.providerId)
  if (!provider) throw new InvalidProvider("Unknown provider id. Check the id in the sign-in URL against the configured providers.")
  return provider
}

/** A POST that changes state must carry a valid CSRF token and must not come from another site. */
function guardCsrf(req: AuthRequest, config: ResolvedConfig): ResponseInternal | undefined {
  if (config.skipCSRF) return undefined
  if (isCrossSite(req)) {
    config.logger.error(new MissingCSRF("A cross-site POST was refused (Origin / Sec-Fetch-Site)."))
    return { status: 403, headers: { "Content-Type": "application/json" }, body: { error: "MissingCSRF" } }
  }
  if (!isCsrfValid(req, config)) throw new MissingCSRF("CSRF token was missing or did not match the CSRF cookie.")
  return undefined
}

function allowOnly(req: AuthRequest, allow: readonly string[]): void {
  if (!allow.includes(req.method)) methodNotAllowed(req, allow)
}

/** Each action's handler, once the table's method guard has passed; a missing action fails to compile. */
const handlers: { readonly [A in AuthAction]: (req: AuthRequest, config: ResolvedConfig) => Handler } = {
  providers: (req, config) => () => providers(req, config),
  csrf: (req, config) => () => csrf(req, config),
  session: (req, config) => {
    if (req.method === "GET") return () => session(req, config)
    return () => guardCsrf(req, config) ?? session(req, config, { data: req.body.data })
  },
  signin: (req, config) => {
    if (req.providerId === undefined) {
      if (req.method === "GET") return () => signInPageAction(req, config)
      return () => guardCsrf(req, config) ?? signIn(req, config, undefined)
    }
    const provider = findProvider(req, config)
    return () => guardCsrf(req, config) ?? signIn(req, config, provider)
  },
  callback: (req, config) => {
    const provider = findProvider(req, config)
    // Credentials and WebAuthn answer POST only: a GET must never run `authorize` (CR-03).
    if (provider.type === "credentials") {
      allowOnly(req, POST)
      return () => guardCsrf(req, config) ?? callback(req, config, provider)
    }
    if (provider.type === "webauthn") allowOnly(req, POST)
    return () => callback(req, config, provider)
  },
  signout: (req, config) => {
    if (req.method === "GET") return () => signOutPageAction(req, config)
    return () => guardCsrf(req, config) ?? signOut(req, config)
  },
  error: (req, config) => () => errorPageAction(req, config),
  "verify-request": (req, config) => () => verifyRequestPageAction(req, config),
  "webauthn-options": () => {
    throw new UnknownAction("WebAuthn is not enabled in this configuration.")
  },
}

/** Picks the handler for a parsed request, applying the method (actions/table.ts), provider and CSRF guards first. */
export function route(req: AuthRequest, config: ResolvedConfig): Handler {
  const rule = actionRule(req.action)
  allowOnly(req, req.providerId !== undefined && rule.providerMethods ? rule.providerMethods : rule.methods)
  return handlers[req.action](req, config)
}
