// Public `gatehouse/errors`: AuthError, one subclass per error type, each with its policy (what a browser sees), and AnyAuthError.

/** How an error is shown: on the sign-in page (`?error=` banner) or on the error page. */
export type ErrorKind = "signIn" | "error"

/**
 * Base class of every error Gatehouse throws or logs. `type` names the case; detail lives in `cause`.
 *
 * Each class also carries its policy as static fields, read from the instance's constructor when a request fails:
 * `pageCode` (what a browser is told) and `status` (the HTTP status it gets). A subclass inherits both unless it sets
 * its own, so a new error is hidden (`Configuration`, 500) until its class says otherwise.
 */
export class AuthError extends Error {
  /**
   * The `?error=` code a browser is sent for this error. `Configuration`, the default, tells it nothing more: the type
   * and message stay in the server log. The classes a browser may see set their own code (docs/guide.md, "Errors").
   */
  static readonly pageCode: string = "Configuration"
  /**
   * The HTTP status of the built-in error page for this error's `pageCode` (500 for `Configuration`, 200 for a code
   * without a page of its own), and of a JSON answer that names this error. The sign-in page, where errors of kind
   * `signIn` land, always answers 200.
   */
  static readonly status: number = 500
  /** The Auth.js error type name; subclasses narrow it to a literal. */
  readonly type: string = "AuthError"
  /** Whether a user is sent back to the sign-in page or to the error page. */
  readonly kind: ErrorKind = "error"
  constructor(message?: string, options?: { cause?: unknown }) {
    super(message ?? "", options?.cause === undefined ? undefined : { cause: options.cause })
    this.name = new.target.name
  }
}

/** Errors that send the user back to the sign-in page with `?error=<type>`. */
export class SignInError extends AuthError {
  override readonly kind = "signIn"
}

/** A refused sign-in. `code` is `access_denied` when the user cancelled at the provider (sent to the error page as `&code=`). */
export class AccessDenied extends AuthError {
  static override readonly pageCode = "AccessDenied"
  static override readonly status = 403
  override readonly type = "AccessDenied"
  code: "access_denied" | undefined
}
export class AdapterError extends AuthError {
  override readonly type = "AdapterError"
}
export class CallbackRouteError extends AuthError {
  override readonly type = "CallbackRouteError"
}
export class ErrorPageLoop extends AuthError {
  override readonly type = "ErrorPageLoop"
}
export class EventError extends AuthError {
  override readonly type = "EventError"
}
export class InvalidCallbackUrl extends AuthError {
  override readonly type = "InvalidCallbackUrl"
}
/** Thrown (or returned as null from `authorize`) when credentials are wrong. Subclass it and set `code` to pass a reason to the page. */
export class CredentialsSignin extends SignInError {
  static override readonly pageCode = "CredentialsSignin"
  static override readonly status = 200
  override readonly type = "CredentialsSignin"
  /** Sent to the sign-in page as `&code=`; keep it free of secrets. */
  code: string = "credentials"
}
export class InvalidEndpoints extends AuthError {
  override readonly type = "InvalidEndpoints"
}
export class InvalidCheck extends AuthError {
  override readonly type = "InvalidCheck"
}
export class JWTSessionError extends AuthError {
  override readonly type = "JWTSessionError"
}
export class MissingAdapter extends AuthError {
  override readonly type = "MissingAdapter"
}
export class MissingAdapterMethods extends AuthError {
  override readonly type = "MissingAdapterMethods"
}
/**
 * Gatehouse only: a `store` (a SharedStore, gatehouse/stores) or `rateLimit.store` (a RateLimitStore,
 * gatehouse/rate-limit) lacks methods; the message names them. A configuration error, like MissingAdapterMethods.
 */
export class MissingStoreMethods extends AuthError {
  override readonly type = "MissingStoreMethods"
}
/**
 * Gatehouse only: `gatehouse/sessions` was called for a config without `session.revocation`, so no session was
 * listed and none can be revoked. A configuration error.
 */
export class RevocationNotEnabled extends AuthError {
  override readonly type = "RevocationNotEnabled"
}
export class MissingAuthorize extends AuthError {
  override readonly type = "MissingAuthorize"
}
export class MissingSecret extends AuthError {
  override readonly type = "MissingSecret"
}
export class OAuthAccountNotLinked extends SignInError {
  static override readonly pageCode = "OAuthAccountNotLinked"
  static override readonly status = 200
  override readonly type = "OAuthAccountNotLinked"
}
export class OAuthCallbackError extends SignInError {
  static override readonly pageCode = "OAuthCallbackError"
  static override readonly status = 200
  override readonly type = "OAuthCallbackError"
}
export class OAuthProfileParseError extends AuthError {
  override readonly type = "OAuthProfileParseError"
}
export class SessionTokenError extends AuthError {
  override readonly type = "SessionTokenError"
}
export class OAuthSignInError extends SignInError {
  override readonly type = "OAuthSignInError"
}
/**
 * A sign-in e-mail that could not be sent, or an address refused before sending. Shown as `EmailSignin`, the code
 * Auth.js clients know.
 */
export class EmailSignInError extends SignInError {
  static override readonly pageCode = "EmailSignin"
  static override readonly status = 200
  override readonly type = "EmailSignInError"
}
/**
 * Too many sign-in attempts for one identifier or client address (Gatehouse's `rateLimit`; Auth.js has none): 429 with
 * `Retry-After` for JSON clients, else the sign-in page with `?error=RateLimited`.
 */
export class RateLimited extends SignInError {
  static override readonly pageCode = "RateLimited"
  static override readonly status = 429
  override readonly type = "RateLimited"
  /** Seconds until the window that refused the attempt ends. */
  retryAfter = 60
}
export class SignOutError extends AuthError {
  override readonly type = "SignOutError"
}
/** A path or method Gatehouse has no action for: answered as JSON naming it (400; 405 with `Allow`), never a page. */
export class UnknownAction extends AuthError {
  static override readonly status = 400
  override readonly type = "UnknownAction"
  /** Set when the action exists but not for this method: the methods it accepts (answered as 405 with `Allow`). */
  allow: readonly string[] | undefined
  constructor(message?: string, options?: { cause?: unknown; allow?: readonly string[] }) {
    super(message, options)
    this.allow = options?.allow
  }
}
export class UnsupportedStrategy extends AuthError {
  override readonly type = "UnsupportedStrategy"
}
export class InvalidProvider extends AuthError {
  override readonly type = "InvalidProvider"
}
export class UntrustedHost extends AuthError {
  override readonly type = "UntrustedHost"
}
export class Verification extends AuthError {
  static override readonly pageCode = "Verification"
  static override readonly status = 403
  override readonly type = "Verification"
}
export class MissingCSRF extends SignInError {
  static override readonly pageCode = "MissingCSRF"
  static override readonly status = 200
  override readonly type = "MissingCSRF"
}
export class AccountNotLinked extends SignInError {
  static override readonly pageCode = "AccountNotLinked"
  static override readonly status = 200
  override readonly type = "AccountNotLinked"
}
export class DuplicateConditionalUI extends AuthError {
  override readonly type = "DuplicateConditionalUI"
}
export class MissingWebAuthnAutocomplete extends AuthError {
  override readonly type = "MissingWebAuthnAutocomplete"
}
export class WebAuthnVerificationError extends AuthError {
  static override readonly pageCode = "WebAuthnVerificationError"
  static override readonly status = 200
  override readonly type = "WebAuthnVerificationError"
}
export class ExperimentalFeatureNotEnabled extends AuthError {
  override readonly type = "ExperimentalFeatureNotEnabled"
}
/** Gatehouse only: an OAuth access token could not be refreshed; the session carries `error: "RefreshTokenError"`. */
export class RefreshTokenError extends AuthError {
  override readonly type = "RefreshTokenError"
}
/**
 * Gatehouse only: a request Gatehouse refuses to read (bad body, wrong content, too large). Answered as JSON naming it,
 * never a page, with the instance's `status` (the class's, 400, unless the constructor is given another).
 */
export class InvalidRequest extends AuthError {
  static override readonly status = 400
  override readonly type = "InvalidRequest"
  constructor(
    message: string,
    readonly status: 400 | 413 | 415 | 431 = 400,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

/** Every concrete error; `switch (error.type)` narrows it. */
export type AnyAuthError =
  | AccessDenied
  | AdapterError
  | CallbackRouteError
  | ErrorPageLoop
  | EventError
  | InvalidCallbackUrl
  | CredentialsSignin
  | InvalidEndpoints
  | InvalidCheck
  | JWTSessionError
  | MissingAdapter
  | MissingAdapterMethods
  | MissingStoreMethods
  | RevocationNotEnabled
  | MissingAuthorize
  | MissingSecret
  | OAuthAccountNotLinked
  | OAuthCallbackError
  | OAuthProfileParseError
  | SessionTokenError
  | OAuthSignInError
  | EmailSignInError
  | RateLimited
  | SignOutError
  | UnknownAction
  | UnsupportedStrategy
  | InvalidProvider
  | UntrustedHost
  | Verification
  | MissingCSRF
  | AccountNotLinked
  | DuplicateConditionalUI
  | MissingWebAuthnAutocomplete
  | WebAuthnVerificationError
  | ExperimentalFeatureNotEnabled
  | InvalidRequest
  | RefreshTokenError
