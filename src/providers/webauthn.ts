// The WebAuthn provider (Auth.js `WebAuthn`): passkeys and security keys. Data only; the ceremony is flows/webauthn.ts.
import type { Adapter } from "../adapters/index.js"
import { InvalidProvider } from "../errors.js"
import type { Awaitable, CredentialInput, User } from "../records.js"
import type { CommonProviderOptions } from "./types.js"

/** Default time the browser gives the user for a ceremony: 5 minutes, as in Auth.js. */
export const DEFAULT_WEBAUTHN_TIMEOUT = 5 * 60 * 1000

/** Auth.js's default browser-script version; kept for config compatibility only (Gatehouse loads no script from a CDN). */
export const DEFAULT_SIMPLEWEBAUTHN_BROWSER_VERSION = "v9.0.1"

/** The relying party: `id` is the RP ID (a registrable domain), `origin` the page origin(s) credentials are used from. */
export interface RelayingParty {
  id: string
  name: string
  origin: string
}

/** `relayingParty` as configured: each field one value or a list (the first is used in options; all are accepted on verify). */
export interface RelayingPartyOption {
  id?: string | string[]
  name?: string | string[]
  origin?: string | string[]
}

/** What `getUserInfo` answers: the user the ceremony is for, and whether it exists in the adapter. */
export type GetUserInfoResult = { user: User; exists: true } | { user: Omit<User, "id">; exists: false }

/** The context Gatehouse passes to `getUserInfo` and `getRelayingParty` (the fields of Auth.js's internal options it uses). */
export interface WebAuthnContext {
  provider: WebAuthnConfig
  /** The adapter (with Gatehouse's timeouts and typed errors). */
  adapter: Adapter
  /** `<origin><basePath>`, the origin from the same host rules as every other URL (trustHost, AUTH_URL). */
  url: URL
}

/** The request as `getUserInfo` sees it (Auth.js's RequestInternal fields). */
export interface WebAuthnRequest {
  method: string
  query: Record<string, string>
  /** `any` values, as in Auth.js's RequestInternal, so a `getUserInfo` written for it reads `request.body?.email` as it did. */
  body: Readonly<Record<string, any>> // eslint-disable-line @typescript-eslint/no-explicit-any -- as in Auth.js
  cookies: Record<string, string>
  headers: Headers
}

/** Finds the user from the request (the `email` query by default); null means "not known", which authenticates. */
export type GetUserInfo = (options: WebAuthnContext, request: WebAuthnRequest) => Awaitable<GetUserInfoResult | null>

/**
 * The @simplewebauthn/server functions the flow calls (v13+ signatures). Imported lazily when not given; pass them
 * to pin a version or wrap them.
 */
export interface SimpleWebAuthnMethods {
  generateAuthenticationOptions(options: never): Promise<unknown>
  generateRegistrationOptions(options: never): Promise<unknown>
  verifyAuthenticationResponse(options: never): Promise<unknown>
  verifyRegistrationResponse(options: never): Promise<unknown>
}

/** The provider type of passkey / WebAuthn providers. */
export type WebAuthnProviderType = "webauthn"

/** A WebAuthn provider as configured. */
export interface WebAuthnConfig extends CommonProviderOptions {
  type: WebAuthnProviderType
  /** Overrides of the relying party; by default id = host name, name = host, origin = origin of the request's canonical URL. */
  relayingParty?: RelayingPartyOption
  /** @simplewebauthn/server's functions; by default the installed package's, imported on first use (an optional peer dependency). */
  simpleWebAuthn?: SimpleWebAuthnMethods
  /** Extra options for generateAuthenticationOptions (timeout, userVerification, ...). */
  authenticationOptions?: Record<string, unknown>
  /** Extra options for generateRegistrationOptions (timeout, authenticatorSelection, attestationType, ...). */
  registrationOptions?: Record<string, unknown>
  /** Extra options for verifyAuthenticationResponse (requireUserVerification, ...). */
  verifyAuthenticationOptions?: Record<string, unknown>
  /** Extra options for verifyRegistrationResponse (requireUserVerification, supportedAlgorithmIDs, ...). */
  verifyRegistrationOptions?: Record<string, unknown>
  /** Fields of the built-in sign-in page's passkey form; one must have `webauthn` in its autocomplete. */
  formFields: Record<string, CredentialInput>
  /** Offer passkeys in the browser's autofill (conditional UI) on the built-in sign-in page. At most one provider may. */
  enableConditionalUI: boolean
  /** Accepted for Auth.js compatibility and ignored: the browser code ships inside Gatehouse. */
  simpleWebAuthnBrowserVersion?: string | false
  /** Finds the user a ceremony is for; the default reads `email` from the query (a signed-in user always wins). */
  getUserInfo?: GetUserInfo
  /** Computes the relying party for a request; the default applies `relayingParty` over the request's canonical URL. */
  getRelayingParty?: (options: WebAuthnContext, request: WebAuthnRequest) => RelayingParty
}

let installed: Promise<SimpleWebAuthnMethods> | undefined

/**
 * The installed @simplewebauthn/server, imported on first use. Only this module names the package, so the bundle of
 * an app that has no WebAuthn provider (a Next.js Edge function, a Worker) never looks for it.
 */
function installedSimpleWebAuthn(): Promise<SimpleWebAuthnMethods> {
  installed ??= import("@simplewebauthn/server").then(
    (m) => m as unknown as SimpleWebAuthnMethods,
    (cause: unknown) => {
      installed = undefined
      throw new InvalidProvider(
        "The WebAuthn provider needs the @simplewebauthn/server package: npm install @simplewebauthn/server",
        { cause },
      )
    },
  )
  return installed
}

/** The default `simpleWebAuthn`: the installed package's four functions, imported on the first call. */
const installedMethods: SimpleWebAuthnMethods = {
  generateAuthenticationOptions: async (options) =>
    (await installedSimpleWebAuthn()).generateAuthenticationOptions(options),
  generateRegistrationOptions: async (options) =>
    (await installedSimpleWebAuthn()).generateRegistrationOptions(options),
  verifyAuthenticationResponse: async (options) =>
    (await installedSimpleWebAuthn()).verifyAuthenticationResponse(options),
  verifyRegistrationResponse: async (options) => (await installedSimpleWebAuthn()).verifyRegistrationResponse(options),
}

/** What `WebAuthn()` accepts: every field optional. */
export type WebAuthnUserConfig = Partial<Omit<WebAuthnConfig, "type">>

/** Creates a WebAuthn provider (default id `webauthn`). Needs an adapter and `experimental: { enableWebAuthn: true }`. */
export default function WebAuthn(config: WebAuthnUserConfig = {}): WebAuthnConfig {
  return {
    id: "webauthn",
    name: "WebAuthn",
    enableConditionalUI: true,
    authenticationOptions: { timeout: DEFAULT_WEBAUTHN_TIMEOUT },
    registrationOptions: { timeout: DEFAULT_WEBAUTHN_TIMEOUT },
    formFields: { email: { label: "Email", required: true, autocomplete: "username webauthn" } },
    simpleWebAuthnBrowserVersion: DEFAULT_SIMPLEWEBAUTHN_BROWSER_VERSION,
    simpleWebAuthn: installedMethods,
    ...config,
    type: "webauthn",
  }
}
export { WebAuthn }
