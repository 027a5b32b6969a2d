// English strings of the built-in pages (the fallback language).
import type { PageLocale } from "./types.js"

const differentAccount = "Try signing in with a different account."

export const en: PageLocale = {
  lang: "en",
  signIn: {
    title: "Sign in",
    heading: "Sign in",
    headingWithBrand: "Sign in to {brand}",
    withProvider: "Sign in with {provider}",
    or: "or",
    emailLabel: "Email",
    passkeyEmailLabel: "Email for your passkey",
    emailPlaceholder: "you@example.com",
    passkeySignIn: "Sign in with a passkey",
    createPasskey: "Create a passkey",
    createPasskeyHint: "Your device saves a new passkey for this account.",
    continue: "Continue",
    showPassword: "Show",
    hidePassword: "Hide",
    showPasswordLabel: "Show password",
    hidePasswordLabel: "Hide password",
    providerNames: { email: "Email", credentials: "Credentials" },
    errors: {
      Signin: differentAccount,
      OAuthSignin: differentAccount,
      OAuthCallbackError: differentAccount,
      OAuthCreateAccount: differentAccount,
      EmailCreateAccount: differentAccount,
      Callback: differentAccount,
      OAuthAccountNotLinked: "To confirm your identity, sign in with the same account you used originally.",
      EmailSignin: "The sign-in e-mail could not be sent. Check the address and try again.",
      Verification: "The sign-in link is no longer valid. It may have been used already or it may have expired.",
      RateLimited: "Too many sign-in attempts. Wait a moment, then try again.",
      CredentialsSignin: "Sign in failed. Check the details you provided are correct.",
      SessionRequired: "Please sign in to access this page.",
      WebAuthnVerificationError: "The passkey could not be verified. Try again, or use another sign-in method.",
      MissingCSRF: "The form expired. Please try again.",
    },
    defaultError: "Unable to sign in.",
  },
  passkey: {
    unsupported: "This browser does not support passkeys.",
    cancelled: "The passkey request was cancelled or timed out.",
    alreadyRegistered: "This passkey is already registered. Sign in with it instead.",
    failed: "Passkey sign-in failed. Please try again.",
  },
  signOut: {
    title: "Sign out",
    heading: "Sign out",
    message: "Are you sure you want to sign out?",
    button: "Sign out",
  },
  verifyRequest: {
    title: "Check your email",
    heading: "Check your email",
    message: "A sign-in link has been sent to your email address. It works once.",
  },
  error: {
    title: "Error",
    signIn: "Sign in",
    home: "Home",
    tryAgain: "Try again",
    continue: "Continue",
    pages: {
      Configuration: {
        heading: "Server error",
        message: "There is a problem with the server configuration. Check the server logs for more information.",
      },
      AccessDenied: { heading: "Access denied", message: "You do not have permission to sign in." },
      Verification: {
        heading: "Unable to sign in",
        message: "The sign-in link is no longer valid. It may have been used already or it may have expired.",
      },
      EmailSignin: {
        heading: "Unable to sign in",
        message: "The sign-in e-mail could not be sent. Check the address and try again.",
      },
      RateLimited: {
        heading: "Too many attempts",
        message: "Too many sign-in attempts. Wait a moment, then try again.",
      },
      WebAuthnVerificationError: {
        heading: "Unable to sign in",
        message: "The passkey could not be verified. Try again, or use another sign-in method.",
      },
    },
    cancelled: {
      heading: "Sign-in was cancelled",
      message: "You cancelled signing in, so nothing has changed. Try again, or choose another way to sign in.",
    },
    alreadySignedIn: {
      heading: "You're already signed in",
      message: "This sign-in link has been used already, and you are signed in on this browser.",
    },
    default: { heading: "Error", message: "Something went wrong while signing in." },
  },
}
