// (action, method) -> guarded handler. Guards: allowed methods (405, from actions/table.ts and the provider's sign-in
// kind), repeated form fields (400), known provider, CSRF on state-changing POSTs, sign-in rate limit (as the kind says).
import { InvalidProvider, InvalidRequest, MissingCSRF, UnknownAction } from "./errors.js"
import type { AuthRequest, KindAction, KindRoute, ResolvedConfig, ResolvedProvider } from "./pipeline-types.js"
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
import { guardRateLimit } from "./rate-limit/sign-in-limit.js"
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
async function guardCsrf(req: AuthRequest, config: ResolvedConfig): Promise<ResponseInternal | undefined> {
  if (config.skipCSRF) return undefined
  if (isCrossSite(req)) {
    config.logger.error(new MissingCSRF("A cross-site POST was refused (Origin / Sec-Fetch-Site)."))
    return { status: 403, headers: { "Content-Type": "application/json" }, body: { error: "MissingCSRF" } }
  }
  if (!(await isCsrfValid(req, config)))
    throw new MissingCSRF("CSRF token was missing or did not match the CSRF cookie.")
  return undefined
}

/** The step behind the CSRF guard. */
function csrfGuarded(req: AuthRequest, config: ResolvedConfig, step: Handler): Handler {
  return async () => (await guardCsrf(req, config)) ?? step()
}

/**
 * The guards of a sign-in kind's route (flows/kinds/), then its step. CSRF first (a forged request must not spend the
 * victim's attempts), then the sign-in rate limit (rate-limit/sign-in-limit.ts): over the limit the step never runs. A step
 * that throws keeps its attempt counted; one that succeeds gives it back where the kind says so (credentials: only
 * failures use up the limit; every e-mail request counts).
 */
function guarded(
  req: AuthRequest,
  config: ResolvedConfig,
  provider: ResolvedProvider,
  route: KindRoute,
  step: Handler,
): Handler {
  const limit = route.rateLimit
  if (limit) {
    return async () => {
      if (route.csrf) {
        const refused = await guardCsrf(req, config)
        if (refused) return refused
      }
      const counted = guardRateLimit(req, config, provider, limit)
      const undo = typeof counted === "function" ? counted : await counted
      const response = await step()
      if (limit.undoOnSuccess) {
        const undone = undo()
        if (undone) await undone
      }
      return response
    }
  }
  if (route.csrf) return csrfGuarded(req, config, step)
  return step
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

/** The fields acted on for a request naming `provider`: the common ones, plus those its kind reads (credentials: the declared fields). */
function actedOnFields(provider: ResolvedProvider | undefined, config: ResolvedConfig): ReadonlySet<string> {
  const reads = provider && config.kindOf(provider).readsFields
  if (!provider || !reads) return ACTED_ON_FIELDS
  let fields = actedOnByProvider.get(provider)
  if (!fields) {
    fields = new Set([...ACTED_ON_FIELDS, ...reads(provider)])
    actedOnByProvider.set(provider, fields)
  }
  return fields
}

/**
 * A form field Gatehouse acts on, sent twice, is refused before anything runs (docs/security.md HN-01): a middleware in
 * front may have read the other value. The message names no field, so the answer echoes nothing of the request.
 */
function refuseRepeatedFields(req: AuthRequest, config: ResolvedConfig, provider: ResolvedProvider | undefined): void {
  if (req.repeatedFields.length === 0) return
  if (repeatedFormField(req, actedOnFields(provider, config)) === undefined) return
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
    return csrfGuarded(req, config, () => session(req, config, { data: req.body.data }))
  },
  signin: (req, config, provider) => {
    if (req.providerId === undefined) {
      if (req.method === "GET") return () => signInPageAction(req, config)
      return csrfGuarded(req, config, () => signIn(req, config, undefined))
    }
    const found = provider ?? findProvider(req, config)
    return guarded(req, config, found, config.kindOf(found).routes.signin, () => signIn(req, config, found))
  },
  callback: (req, config, provider) => {
    const found = provider ?? findProvider(req, config)
    return guarded(req, config, found, config.kindOf(found).routes.callback, () => callback(req, config, found))
  },
  signout: (req, config) => {
    if (req.method === "GET") return () => signOutPageAction(req, config)
    return csrfGuarded(req, config, () => signOut(req, config))
  },
  error: (req, config) => () => errorPageAction(req, config),
  "verify-request": (req, config) => () => verifyRequestPageAction(req, config),
  "webauthn-options": (req, config, provider) => {
    const found = provider ?? findProvider(req, config)
    const route = config.kindOf(found).routes["webauthn-options"]
    // Only a kind with a browser ceremony has its options.
    if (!route) throw new InvalidProvider(`Provider "${found.id}" is not a WebAuthn provider.`)
    return guarded(req, config, found, route, () => webAuthnOptionsAction(req, config, found, route))
  },
}

/** Picks the handler for a parsed request, applying the method (actions/table.ts), provider and CSRF guards first. */
export function route(req: AuthRequest, config: ResolvedConfig): Handler {
  const rule = actionRule(req.action)
  let allow = rule.methods
  let provider: ResolvedProvider | undefined
  if (req.providerId !== undefined) {
    allow = rule.providerMethods ?? allow
    // A known provider's kind may narrow the methods; an unknown one is the handler's to report (after the method check).
    provider = config.providers.get(req.providerId)
    if (provider) allow = config.kindOf(provider).routes[req.action as KindAction]?.methods ?? allow
  }
  allowOnly(req, allow, rule.refuseHead === true)
  refuseRepeatedFields(req, config, provider)
  return handlers[req.action](req, config, provider)
}
