// The public `?error=` code of an error: internal, shared by the response layer (never part of `gatehouse/errors`).
import { AuthError } from "../errors.js"

/** The error types whose name may be shown to the browser in `?error=`; everything else becomes `Configuration`. */
const clientSafeTypes = new Set([
  "CredentialsSignin",
  "OAuthAccountNotLinked",
  "OAuthCallbackError",
  "AccessDenied",
  "Verification",
  "MissingCSRF",
  "AccountNotLinked",
  "WebAuthnVerificationError",
  "RateLimited",
])

/** Client-safe types shown under another code: the sign-in page banner keys Auth.js clients know. */
const renamedTypes: ReadonlyMap<string, string> = new Map([["EmailSignInError", "EmailSignin"]])

/** The public `?error=` code for an error: its type when client-safe (or its page code), else `Configuration`. */
export function publicErrorCode(error: unknown): string {
  if (!(error instanceof AuthError)) return "Configuration"
  if (clientSafeTypes.has(error.type)) return error.type
  return renamedTypes.get(error.type) ?? "Configuration"
}
