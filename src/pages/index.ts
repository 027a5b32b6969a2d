// The built-in pages as pure functions: props -> HTML string.
import type { ResolvedProvider } from "../domain.js"
import type { CredentialsConfig } from "../providers/types.js"
import type { Theme } from "../types.js"
import { documentShell, escapeHtml } from "./html.js"
import { PASSKEY_SCRIPT } from "./passkey-script.js"

export { PASSKEY_PAGE_CSP, PASSKEY_SCRIPT, PASSKEY_SCRIPT_HASH } from "./passkey-script.js"

/** Sign-in page banners keyed by `?error=` (legacy v4 codes included, as Auth.js clients send them). */
const signInErrors: Record<string, string> = {
  Signin: "Try signing in with a different account.",
  OAuthSignin: "Try signing in with a different account.",
  OAuthCallbackError: "Try signing in with a different account.",
  OAuthCreateAccount: "Try signing in with a different account.",
  EmailCreateAccount: "Try signing in with a different account.",
  Callback: "Try signing in with a different account.",
  OAuthAccountNotLinked: "To confirm your identity, sign in with the same account you used originally.",
  EmailSignin: "The sign-in e-mail could not be sent. Check the address and try again.",
  Verification: "The sign-in link is no longer valid. It may have been used already or it may have expired.",
  RateLimited: "Too many sign-in attempts. Wait a moment, then try again.",
  CredentialsSignin: "Sign in failed. Check the details you provided are correct.",
  SessionRequired: "Please sign in to access this page.",
  WebAuthnVerificationError: "The passkey could not be verified. Try again, or use another sign-in method.",
  MissingCSRF: "The form expired. Please try again.",
}
const defaultSignInError = "Unable to sign in."

/** A credentials field attribute as page text: only a string is used; anything else (a signal, a number) is the default. */
function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" ? value : fallback
}

/** A WebAuthn form field as the page renders it (the provider's `formFields`, Auth.js's shape). */
interface PasskeyField {
  label?: unknown
  type?: unknown
  placeholder?: unknown
  autocomplete?: unknown
}

/** Auth.js's default `formFields` of the WebAuthn/Passkey providers: the field autofill offers passkeys in. */
const DEFAULT_PASSKEY_FIELDS: Readonly<Record<string, PasskeyField>> = { email: { label: "Email", autocomplete: "username webauthn" } }

function isWebAuthn(p: ResolvedProvider): boolean {
  return p.type === "webauthn"
}

/** True when the sign-in page for these providers carries the passkey script (so it needs PASSKEY_PAGE_CSP). */
export function signInPageHasScript(providers: readonly ResolvedProvider[]): boolean {
  return providers.some(isWebAuthn)
}

function passkeyFields(provider: ResolvedProvider): [string, PasskeyField][] {
  const configured: unknown = "formFields" in provider ? provider.formFields : undefined
  if (typeof configured !== "object" || configured === null) return Object.entries(DEFAULT_PASSKEY_FIELDS)
  return Object.entries(configured).map(([name, field]): [string, PasskeyField] => [name, typeof field === "object" && field !== null ? (field as PasskeyField) : {}])
}

/**
 * One passkey form: its fields, the button, an error line; data- attributes (escaped) tell the page script where to
 * go. The first passkey provider's elements have the stable ids `passkey-form`, `passkey-signin`, `passkey-error`.
 */
function passkeyForm(p: ResolvedProvider, index: number, props: SignInPageProps): string {
  const suffix = index === 0 ? "" : `-${escapeHtml(p.id)}`
  const id = escapeHtml(p.id)
  // The WebAuthn/Passkey provider functions default it to true; the config check holds it to one provider.
  const conditional = "enableConditionalUI" in p && p.enableConditionalUI === true
  const inputs = passkeyFields(p)
    .map(([name, f]) => {
      const autocomplete = typeof f.autocomplete === "string" ? ` autocomplete="${escapeHtml(f.autocomplete)}"` : ""
      return `<label for="input-${escapeHtml(name)}-for-${id}">${escapeHtml(stringOr(f.label, name))}</label><input id="input-${escapeHtml(name)}-for-${id}" name="${escapeHtml(name)}" type="${escapeHtml(stringOr(f.type, "text"))}" placeholder="${escapeHtml(stringOr(f.placeholder, ""))}"${autocomplete}>`
    })
    .join("")
  const data = `data-webauthn-provider="${id}" data-base-path="${escapeHtml(props.basePath)}" data-csrf-token="${escapeHtml(props.csrfToken)}" data-callback-url="${escapeHtml(props.callbackUrl)}" data-conditional="${conditional}" data-state="idle"`
  return `<form id="passkey-form${suffix}" action="${escapeHtml(`${props.origin}${props.basePath}/callback/${p.id}`)}" method="POST" novalidate ${data}>${inputs}<button id="passkey-signin${suffix}" type="submit">Sign in with ${escapeHtml(p.name)}</button><p id="passkey-error${suffix}" class="error" role="alert" data-passkey-error hidden></p></form>`
}

export interface SignInPageProps {
  providers: readonly ResolvedProvider[]
  basePath: string
  origin: string
  csrfToken: string
  callbackUrl: string
  error?: string | null
  theme: Theme
}

export function signInPage(props: SignInPageProps): string {
  const { providers, basePath, origin, csrfToken, callbackUrl, error, theme } = props
  const hidden = `<input type="hidden" name="csrfToken" value="${escapeHtml(csrfToken)}"><input type="hidden" name="callbackUrl" value="${escapeHtml(callbackUrl)}">`
  const banner = error ? `<div class="error" role="alert">${escapeHtml(signInErrors[error] ?? defaultSignInError)}</div>` : ""
  const sections: string[] = []
  let passkeys = 0
  for (const p of providers) {
    if (p.type === "webauthn") {
      sections.push(passkeyForm(p, passkeys++, props))
    } else if (p.type === "credentials") {
      const fields = Object.entries((p as CredentialsConfig).credentials ?? {})
      if (fields.length === 0) continue
      const inputs = fields
        .map(([name, f]) => `<label for="input-${escapeHtml(name)}-for-${escapeHtml(p.id)}">${escapeHtml(stringOr(f.label, name))}</label><input id="input-${escapeHtml(name)}-for-${escapeHtml(p.id)}" name="${escapeHtml(name)}" type="${escapeHtml(stringOr(f.type, "text"))}" placeholder="${escapeHtml(stringOr(f.placeholder, ""))}">`)
        .join("")
      sections.push(`<form action="${escapeHtml(`${origin}${basePath}/callback/${p.id}`)}" method="POST">${hidden}${inputs}<button type="submit">Sign in with ${escapeHtml(p.name)}</button></form>`)
    } else if (p.type === "oauth" || p.type === "oidc" || p.type === "email") {
      const email = p.type === "email" ? `<label for="input-email-for-${escapeHtml(p.id)}">Email</label><input id="input-email-for-${escapeHtml(p.id)}" name="email" type="email" required>` : ""
      sections.push(`<form action="${escapeHtml(`${origin}${basePath}/signin/${p.id}`)}" method="POST">${hidden}${email}<button type="submit">Sign in with ${escapeHtml(p.name)}</button></form>`)
    }
  }
  // The one inline script of the built-in pages; the response's CSP allows exactly it (PASSKEY_PAGE_CSP).
  const script = passkeys > 0 ? `<script>${PASSKEY_SCRIPT}</script>` : ""
  return documentShell("Sign In", `<h1>Sign in</h1>${banner}${sections.join("<hr>")}${script}`, theme)
}

export function signOutPage(props: { action: string; csrfToken: string; callbackUrl?: string; theme: Theme }): string {
  const callback = props.callbackUrl === undefined ? "" : `<input type="hidden" name="callbackUrl" value="${escapeHtml(props.callbackUrl)}">`
  return documentShell(
    "Sign Out",
    `<h1>Sign out</h1><p>Are you sure you want to sign out?</p><form action="${escapeHtml(props.action)}" method="POST"><input type="hidden" name="csrfToken" value="${escapeHtml(props.csrfToken)}">${callback}<button id="submitButton" type="submit">Sign out</button></form>`,
    props.theme,
  )
}

const errorPages: Record<string, { status: number; heading: string; message: string }> = {
  Configuration: { status: 500, heading: "Server error", message: "There is a problem with the server configuration. Check the server logs for more information." },
  AccessDenied: { status: 403, heading: "Access denied", message: "You do not have permission to sign in." },
  Verification: { status: 403, heading: "Unable to sign in", message: "The sign in link is no longer valid. It may have been used already or it may have expired." },
  // Sign-in page codes, for apps that link to the error page with them.
  EmailSignin: { status: 200, heading: "Unable to sign in", message: "The sign-in e-mail could not be sent. Check the address and try again." },
  RateLimited: { status: 429, heading: "Too many attempts", message: "Too many sign-in attempts. Wait a moment, then try again." },
  // Where a refused passkey lands (as in Auth.js, an error-page code): say what failed, and offer the sign-in page again.
  WebAuthnVerificationError: { status: 200, heading: "Unable to sign in", message: "The passkey could not be verified. Try again, or use another sign-in method." },
}
const defaultErrorPage = { status: 200, heading: "Error", message: "Something went wrong while signing in." }

/** The error page for a public error code; unknown codes get the generic page and are never reflected (docs/security.md RD-09). */
export function errorPage(props: { error: string | null; signInUrl: string; homeUrl: string; theme: Theme }): { status: number; html: string } {
  const page = (props.error && Object.hasOwn(errorPages, props.error) ? errorPages[props.error] : undefined) ?? defaultErrorPage
  const link = page !== errorPages.Configuration
    ? `<a class="button" href="${escapeHtml(props.signInUrl)}">Sign in</a>`
    : `<a class="button" href="${escapeHtml(props.homeUrl)}">Home</a>`
  return { status: page.status, html: documentShell("Error", `<h1>${escapeHtml(page.heading)}</h1><p>${escapeHtml(page.message)}</p>${link}`, props.theme) }
}

export function verifyRequestPage(props: { homeUrl: string; theme: Theme }): string {
  return documentShell(
    "Verify Request",
    `<h1>Check your email</h1><p>A sign in link has been sent to your email address. It works once.</p><a class="button" href="${escapeHtml(props.homeUrl)}">Home</a>`,
    props.theme,
  )
}
