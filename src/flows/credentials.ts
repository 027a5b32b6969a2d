// Credentials sign-in: authorize() -> a verified identity, or CredentialsSignin. No session or cookie work here.
import { CallbackRouteError, CredentialsSignin } from "../errors.js"
import type { AuthRequest, ResolvedConfig, VerifiedIdentity } from "../pipeline-types.js"
import type { CredentialsConfig } from "../providers/types.js"
import type { User } from "../types.js"
import { declaredParameters } from "../lib/parameters.js"
import { merged } from "../lib/merged.js"

/** Keys that never name a field (a body or a declaration holding them is never read through them). */
const unsafeKeys: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"])

/** The library's own field: checked before `authorize` runs, and of no use to it (nor to an app's logs). */
const CSRF_FIELD = "csrfToken"

/** The provider's declared credential fields, in declaration order (the order the built-in sign-in page shows them). */
export function declaredCredentialFields(provider: Pick<CredentialsConfig, "credentials">): readonly string[] {
  const declared: unknown = provider.credentials
  if (typeof declared !== "object" || declared === null) return []
  return Object.keys(declared).filter((key) => !unsafeKeys.has(key))
}

/** Whether a declared field is a password (`type: "password"`, or a signal holding it): never an account identifier. */
function isPasswordField(spec: unknown): boolean {
  if (typeof spec !== "object" || spec === null) return false
  const type: unknown = (spec as { type?: unknown }).type
  const value = typeof type === "object" && type !== null ? (type as { value?: unknown }).value : type
  return typeof value === "string" && value.toLowerCase() === "password"
}

/** The two fields that conventionally name the account, counted when a provider declares none (each on its own). */
const CONVENTIONAL_IDENTIFIER_FIELDS: readonly string[] = ["email", "username"]

/**
 * The body fields whose values name the account, for the per-account rate limit: with declared fields, the first one
 * whose type is not "password" (or none); with none declared, `email` and `username`.
 */
export function identifierFields(provider: Pick<CredentialsConfig, "credentials">): readonly string[] {
  const fields = declaredCredentialFields(provider)
  if (fields.length === 0) return CONVENTIONAL_IDENTIFIER_FIELDS
  const specs = provider.credentials as Record<string, unknown>
  const first = fields.find((name) => !isPasswordField(specs[name]))
  return first === undefined ? [] : [first]
}

/**
 * What `authorize` receives (docs/security.md CR-04, RL-01): with declared fields, only those of them that are strings
 * in the body; with none declared, every string field but `csrfToken`. Non-string JSON values are dropped.
 */
export function credentialInput(
  body: Readonly<Record<string, unknown>>,
  provider: Pick<CredentialsConfig, "credentials">,
): Record<string, string> {
  const out: Record<string, string> = {}
  const declared = declaredCredentialFields(provider)
  if (declared.length > 0) {
    for (const key of declared) {
      const value = Object.hasOwn(body, key) ? body[key] : undefined
      if (typeof value === "string") out[key] = value
    }
    return out
  }
  for (const key of Object.keys(body)) {
    const value = body[key]
    if (typeof value === "string" && key !== CSRF_FIELD && !unsafeKeys.has(key)) out[key] = value
  }
  return out
}

/**
 * What next-auth 4's `authorize(credentials, req)` gets: the whole parsed body (csrfToken, callbackUrl and json
 * included) as credentials, and a request of `{ body, query, headers, method }` (plain objects, header names in lower
 * case). The app's authorize picks its fields, as it did under next-auth 4.
 */
function v4AuthorizeArguments(req: AuthRequest): [Record<string, unknown>, Record<string, unknown>] {
  const body = { ...req.body }
  const headers: Record<string, string> = {}
  req.headers.forEach((value, name) => {
    headers[name] = value
  })
  return [body, { body: { ...req.body }, query: Object.fromEntries(req.query), headers, method: req.method }]
}

/** Calls the provider's `authorize`; null, a throw or a user without `id` end the sign-in with a typed error. */
export async function verifyCredentials(
  req: AuthRequest,
  config: ResolvedConfig,
  provider: CredentialsConfig,
): Promise<VerifiedIdentity> {
  let credentials: Record<string, string>
  let request: Request
  if (config.wire === "next-auth-v4") {
    const [body, v4Request] = v4AuthorizeArguments(req)
    // The body's values as parsed (strings from a form), typed as the credentials parameter Gatehouse declares.
    credentials = body as Record<string, string>
    request = v4Request as unknown as Request
  } else {
    credentials = credentialInput(req.body, provider)
    // Building a Request costs more than the rest of a sign-in; only make it for an authorize that declares a second
    // (or rest) parameter.
    request =
      declaredParameters(provider.authorize) >= 2
        ? new Request(req.url, { method: "POST", headers: req.headers, body: JSON.stringify(credentials) })
        : (undefined as unknown as Request)
  }
  let user: User | null
  try {
    user = await provider.authorize(credentials, request)
  } catch (error) {
    if (error instanceof CredentialsSignin) throw error
    throw new CallbackRouteError("The credentials provider's `authorize` threw.", { cause: error })
  }
  if (!user) throw new CredentialsSignin("`authorize` returned no user: the credentials are wrong.")
  if (user.id === undefined || user.id === null || String(user.id) === "") {
    config.logger.warn("credentials-authorize-missing-id")
    throw new CredentialsSignin(
      "`authorize` returned a user without `id`; return the user's id so the session has a subject.",
    )
  }
  const id = String(user.id)
  return {
    user: merged(user, { id }),
    account: { providerAccountId: id, type: "credentials", provider: provider.id },
    credentials,
  }
}
