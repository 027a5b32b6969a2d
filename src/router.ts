// (action, method) -> guarded handler. Guards: allowed methods (405, from actions/table.ts), repeated form fields (400), known provider, CSRF on state-changing POSTs, sign-in rate limit.
import { InvalidProvider, InvalidRequest, MissingCSRF, UnknownAction } from "./errors.js"
import type { AuthRequest, ResolvedConfig, ResolvedProvider } from "./domain.js"
import { callback } from "./actions/callback.js"
import { csrf } from "./actions/csrf.js"
import { errorPageAction, signInPageAction, signOutPageAction, verifyRequestPageAction } from "./actions/pages.js"
import { providers } from "./actions/providers.js"
import { session } from "./actions/session.js"
import { signIn } from "./actions/signin.js"
import { signOut } from "./actions/signout.js"
import { webAuthnOptionsAction } from "./actions/webauthn-options.js"
import { isCrossSite, isCsrfValid } from "./security/csrf.js"
import type { AuthAction, Awaitable, ResponseInternal } from "./types.js"
import { actionRule } from "./actions/table.js"
import { guardRateLimit } from "./rate-limit/guard.js"
import { declaredCredentialFields } from "./flows/credentials.js"
import { repeatedFormField } from "./lib/body-fields.js"

type Handler = () => Awaitable<ResponseInternal>

function methodNotAllowed(req: AuthRequest, allow: readonly string[]): never {
  // The message names only the action (one of the table's) and the allowed methods: nothing of the request is echoed
  // in an error body (docs/security.md RQ-06), not the provider id from the path and not the method token.
  throw new UnknownAction(`This method is not allowed on /${req.action}; use ${allow.join(" or ")}.`, { allow })
}

/**
 * The provider named in the path, looked up in the Map (never on an object, so `__proto__` finds nothing, docs/security.md OA-20).
 * An unknown id is a configuration error (`/error?error=Configuration`), as in Auth.js.
 */
function findProvider(req: AuthRequest, config: ResolvedConfig): ResolvedProvider {
  const provider = req.providerId === undefined ? undefined : config.providers.get(req.providerId)
  if (!provider)
    throw new InvalidProvider("Unknown provider id. Check the id in the sign-in URL against the configured providers.")
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

/**
 * CSRF first (a forged request must not spend the victim's attempts), then the sign-in rate limit
 * (rate-limit/guard.ts), then the action: over the limit the action never runs. An action that throws keeps its attempt counted.
 */
function limited(req: AuthRequest, config: ResolvedConfig, provider: ResolvedProvider, action: Handler): Handler {
  return async () => {
    const refused = guardCsrf(req, config)
    if (refused) return refused
    const undo = await guardRateLimit(req, config, provider)
    const response = await action()
    // A credentials sign-in that succeeded does not count: only failures use up the limit. Every e-mail request counts.
    if (provider.type === "credentials") await undo()
    return response
  }
}

/** The form fields Gatehouse itself reads on some route: a repeat of any is refused wherever it comes. */
const ACTED_ON_FIELDS: ReadonlySet<string> = new Set([
  "csrfToken",
  "callbackUrl",
  "email",
  "username",
  "password",
  "action",
  "data",
])
const actedOnByProvider = new WeakMap<ResolvedProvider, ReadonlySet<string>>()

/** The fields acted on for a request naming `provider`: the common ones, plus a credentials provider's declared fields. */
function actedOnFields(provider: ResolvedProvider | undefined): ReadonlySet<string> {
  if (provider?.type !== "credentials") return ACTED_ON_FIELDS
  let fields = actedOnByProvider.get(provider)
  if (!fields) {
    fields = new Set([...ACTED_ON_FIELDS, ...declaredCredentialFields(provider)])
    actedOnByProvider.set(provider, fields)
  }
  return fields
}

/**
 * A form field Gatehouse acts on, sent twice, is refused before anything runs (docs/security.md HN-01): a middleware in
 * front may have read the other value. The message names no field, so the answer echoes nothing of the request.
 */
function refuseRepeatedFields(req: AuthRequest, config: ResolvedConfig): void {
  if (!req.form) return
  const provider = req.providerId === undefined ? undefined : config.providers.get(req.providerId)
  if (repeatedFormField(req, actedOnFields(provider)) === undefined) return
  throw new InvalidRequest(
    "A form field Gatehouse reads (csrfToken, callbackUrl, email, username, password, or a declared credential field) was sent more than once; send each once.",
  )
}

function allowOnly(req: AuthRequest, allow: readonly string[], refuseHead: boolean): void {
  if (!allow.includes(req.method) || (req.head && refuseHead)) methodNotAllowed(req, allow)
}

/** Each action's handler, once the table's method guard has passed (with the provider, for actions that name one). */
type Handlers = {
  readonly [A in AuthAction]: (
    req: AuthRequest,
    config: ResolvedConfig,
    provider: ResolvedProvider | undefined,
  ) => Handler
}

const handlers: Handlers = {
  providers: (req, config) => () => providers(req, config),
  csrf: (req, config) => () => csrf(req, config),
  session: (req, config) => {
    if (req.method === "GET") return () => session(req, config)
    return () => guardCsrf(req, config) ?? session(req, config, { data: req.body.data })
  },
  signin: (req, config, provider) => {
    if (req.providerId === undefined) {
      if (req.method === "GET") return () => signInPageAction(req, config)
      return () => guardCsrf(req, config) ?? signIn(req, config, undefined)
    }
    const found = provider ?? findProvider(req, config)
    if (found.type === "email") return limited(req, config, found, () => signIn(req, config, found))
    return () => guardCsrf(req, config) ?? signIn(req, config, found)
  },
  callback: (req, config, provider) => {
    const found = provider ?? findProvider(req, config)
    // Only the credentials callback checks CSRF (wire.md 2.7); other callbacks are the provider's redirect back.
    if (found.type === "credentials") return limited(req, config, found, () => callback(req, config, found))
    // Stricter than Auth.js (which checks none here): a WebAuthn callback is a form POST that signs in, so it carries the CSRF token.
    if (found.type === "webauthn") return () => guardCsrf(req, config) ?? callback(req, config, found)
    return () => callback(req, config, found)
  },
  signout: (req, config) => {
    if (req.method === "GET") return () => signOutPageAction(req, config)
    return () => guardCsrf(req, config) ?? signOut(req, config)
  },
  error: (req, config) => () => errorPageAction(req, config),
  "verify-request": (req, config) => () => verifyRequestPageAction(req, config),
  "webauthn-options": (req, config, provider) => {
    const found = provider ?? findProvider(req, config)
    return () => webAuthnOptionsAction(req, config, found)
  },
}

/** Picks the handler for a parsed request, applying the method (actions/table.ts), provider and CSRF guards first. */
export function route(req: AuthRequest, config: ResolvedConfig): Handler {
  const rule = actionRule(req.action)
  let allow = rule.methods
  let provider: ResolvedProvider | undefined
  if (req.providerId !== undefined) {
    allow = rule.providerMethods ?? allow
    if (rule.providerTypeMethods) {
      // A known provider narrows the methods; an unknown one is the handler's to report (after the method check).
      provider = config.providers.get(req.providerId)
      if (provider) allow = rule.providerTypeMethods[provider.type] ?? allow
    }
  }
  allowOnly(req, allow, rule.refuseHead === true)
  refuseRepeatedFields(req, config)
  return handlers[req.action](req, config, provider)
}
