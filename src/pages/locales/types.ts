// The shape of a page locale: every string the built-in pages show. A new language is one file of this type.

/** `?error=` codes with their own sign-in page banner (legacy v4 codes included, as Auth.js clients send them). */
export type SignInErrorCode =
  | "Signin"
  | "OAuthSignin"
  | "OAuthCallbackError"
  | "OAuthCreateAccount"
  | "EmailCreateAccount"
  | "Callback"
  | "OAuthAccountNotLinked"
  | "EmailSignin"
  | "Verification"
  | "RateLimited"
  | "CredentialsSignin"
  | "SessionRequired"
  | "WebAuthnVerificationError"
  | "MissingCSRF"

/** `?error=` codes with their own error page. */
export type ErrorPageCode =
  | "Configuration"
  | "AccessDenied"
  | "Verification"
  | "EmailSignin"
  | "RateLimited"
  | "WebAuthnVerificationError"

/** A heading and the sentence under it. */
export interface PageMessage {
  heading: string
  message: string
}

/**
 * Every string of the built-in pages in one language. `{provider}` in a template is replaced by the provider's name
 * (escaped after the replacement, like every other value).
 */
export interface PageLocale {
  /** BCP 47 tag for `<html lang>`, e.g. `en`, `de`. */
  lang: string
  signIn: {
    title: string
    heading: string
    /** Title and heading when the theme names the app (`theme.brandName`): `Sign in to {brand}`. */
    headingWithBrand: string
    /** Button of an OAuth, e-mail, credentials or passkey provider: `Sign in with {provider}`. */
    withProvider: string
    /** The divider between sections. */
    or: string
    /** Label of the e-mail provider's address field (and of a credentials `email` field left at Auth.js's "Email"). */
    emailLabel: string
    /**
     * Label of a passkey form's default `email` field: unlike `emailLabel`, so a page with an e-mail provider and a
     * passkey provider does not show two fields called "Email".
     */
    passkeyEmailLabel: string
    emailPlaceholder: string
    /** The one-click passkey button of a passkey provider left at its default name ("Passkey" or "WebAuthn"). */
    passkeySignIn: string
    /** The disclosure (and its button) that asks for an e-mail and registers a new passkey. */
    createPasskey: string
    /** The line above the registration form's fields. */
    createPasskeyHint: string
    /** The submit button of a sign-in method shown under "further methods" (its disclosure already names it). */
    continue: string
    /** The password show/hide control: visible text, and the accessible name that contains it. */
    showPassword: string
    hidePassword: string
    showPasswordLabel: string
    hidePasswordLabel: string
    /**
     * Provider names shown in place of Auth.js's default ones: an e-mail provider named "Email", a credentials
     * provider named "Credentials". Any other name (one the app set, or a brand such as "Nodemailer") is shown as is.
     */
    providerNames: { email: string; credentials: string }
    errors: Record<SignInErrorCode, string>
    /** The banner for a code not in `errors` (the code itself is never shown). */
    defaultError: string
  }
  /** Messages of the passkey script (read from data- attributes of the form). */
  passkey: {
    unsupported: string
    cancelled: string
    alreadyRegistered: string
    failed: string
  }
  signOut: PageMessage & { title: string; button: string }
  verifyRequest: PageMessage & { title: string }
  error: {
    title: string
    signIn: string
    home: string
    /** The sign-in link of a page where trying again is the way on (a cancelled sign-in). */
    tryAgain: string
    /** The link on to the app (a used sign-in link opened while signed in). */
    continue: string
    pages: Record<ErrorPageCode, PageMessage>
    /** `AccessDenied` because the user pressed Cancel at the provider (`code=access_denied`), not a refusal. */
    cancelled: PageMessage
    /** `Verification` (the link was used) while this browser is signed in. */
    alreadySignedIn: PageMessage
    /** The page for a code not in `pages` (the code itself is never shown). */
    default: PageMessage
  }
}
