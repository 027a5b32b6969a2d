// The public `?error=` code of an error: internal, shared by the response layer (never part of `gatehouse/errors`).
import { AuthError } from "../errors.js"

/** The error types whose name may be shown to the browser in `?error=`; everything else becomes `Configuration`. */
const clientSafeTypes = new Set([
  "CredentialsSignin", "OAuthAccountNotLinked", "OAuthCallbackError", "AccessDenied", "Verification",
  "MissingCSRF", "AccountNotLinked", "WebAuthnVerificationError", "RateLimited",
])

/** The public `?error=` code for an error: its type when client-safe, else `Configuration`. */
export function publicErrorCode(error: unknown): string {
  return error instanceof AuthError && clientSafeTypes.has(error.type) ? error.type : "Configuration"
}
