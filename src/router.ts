// (action, method) -> guarded handler. Guards: allowed methods (405), known provider, CSRF on state-changing POSTs.
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
import type { Awaitable, ResponseInternal } from "./types.js"

type Handler = () => Awaitable<ResponseInternal>

const GET = ["GET"] as const
const POST = ["POST"] as const
const BOTH = ["GET", "POST"] as const

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

/** Picks the handler for a parsed request, applying the method, provider and CSRF guards first. */
export function route(req: AuthRequest, config: ResolvedConfig): Handler {
  switch (req.action) {
    case "providers":
      allowOnly(req, GET)
      return () => providers(req, config)
    case "csrf":
      allowOnly(req, GET)
      return () => csrf(req, config)
    case "session":
      allowOnly(req, BOTH)
      if (req.method === "GET") return () => session(req, config)
      return () => guardCsrf(req, config) ?? session(req, config, { data: req.body.data })
    case "signin": {
      if (req.providerId === undefined) {
        allowOnly(req, BOTH)
        if (req.method === "GET") return () => signInPageAction(req, config)
        return () => guardCsrf(req, config) ?? signIn(req, config, undefined)
      }
      allowOnly(req, POST)
      const provider = findProvider(req, config)
      return () => guardCsrf(req, config) ?? signIn(req, config, provider)
    }
    case "callback": {
      const provider = findProvider(req, config)
      if (provider.type === "credentials") {
        allowOnly(req, POST)
        return () => guardCsrf(req, config) ?? callback(req, config, provider)
      }
      allowOnly(req, provider.type === "webauthn" ? POST : BOTH)
      return () => callback(req, config, provider)
    }
    case "signout":
      allowOnly(req, BOTH)
      if (req.method === "GET") return () => signOutPageAction(req, config)
      return () => guardCsrf(req, config) ?? signOut(req, config)
    case "error":
      allowOnly(req, GET)
      return () => errorPageAction(req, config)
    case "verify-request":
      allowOnly(req, GET)
      return () => verifyRequestPageAction(req, config)
    case "webauthn-options":
      allowOnly(req, GET)
      throw new UnknownAction("WebAuthn is not enabled in this configuration.")
  }
}

