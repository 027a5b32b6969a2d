// Credentials sign-in: authorize() -> a verified identity, or CredentialsSignin. No session or cookie work here.
import { CallbackRouteError, CredentialsSignin } from "../errors.js"
import type { AuthRequest, ResolvedConfig, VerifiedIdentity } from "../domain.js"
import type { CredentialsConfig } from "../providers/types.js"
import type { User } from "../types.js"
import { declaredParameters } from "../lib/parameters.js"

/** The string fields of the body: what `authorize` receives (non-string JSON values are dropped, docs/security.md CR-04). */
function credentialInput(req: AuthRequest): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(req.body)) if (typeof value === "string") out[key] = value
  return out
}

/** Calls the provider's `authorize`; null, a throw or a user without `id` end the sign-in with a typed error. */
export async function verifyCredentials(req: AuthRequest, config: ResolvedConfig, provider: CredentialsConfig): Promise<VerifiedIdentity> {
  const credentials = credentialInput(req)
  // Building a Request costs more than the rest of a sign-in; only make it for an authorize that declares a second
  // (or rest) parameter.
  const request = declaredParameters(provider.authorize) >= 2
    ? new Request(req.url, { method: "POST", headers: req.headers, body: JSON.stringify(credentials) })
    : (undefined as unknown as Request)
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
    throw new CredentialsSignin("`authorize` returned a user without `id`; return the user's id so the session has a subject.")
  }
  const id = String(user.id)
  return {
    user: { ...user, id },
    account: { providerAccountId: id, type: "credentials", provider: provider.id },
    credentials,
  }
}
