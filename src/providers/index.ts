// Public `gatehouse/providers`: the provider types, under the same names as @auth/core/providers (each built-in
// provider is its own subpath, `gatehouse/providers/<id>`).
import type Credentials from "./credentials.js"
import type Email from "./email.js"
import type ForwardEmail from "./forwardemail.js"
import type GitHub from "./github.js"
import type Google from "./google.js"
import type Nodemailer from "./nodemailer.js"
import type Passkey from "./passkey.js"
import type Postmark from "./postmark.js"
import type Resend from "./resend.js"
import type SendGrid from "./sendgrid.js"
import type TikTok from "./tiktok.js"
import type Twitter from "./twitter.js"
import type VK from "./vk.js"
import type WebAuthn from "./webauthn.js"

export type {
  AccountCallback, AppProvider, AppProviders, AuthorizationEndpointHandler, CommonProviderOptions, CredentialInput,
  CredentialsConfig, CredentialsProviderId, EmailConfig, EmailConfigBase, EmailProviderId, EmailProviderSendVerificationRequestParams,
  EmailProviderType, EmailUserConfig, OAuth2Config, OAuthChecks, OAuthConfig, OAuthConfigBase, OAuthEndpointType,
  OAuthProviderButtonStyles, OAuthProviderId, OAuthUserConfig, OIDCConfig, OIDCConfigInternal, OIDCUserConfig, ProfileCallback,
  Provider, ProviderConfig, ProviderId, ProviderType, TokenEndpointHandler, UserinfoEndpointHandler, WebAuthnConfigBase,
  WebAuthnProviderId,
} from "./types.js"
export type {
  GetUserInfo, GetUserInfoResult, RelayingParty, RelayingPartyOption, SimpleWebAuthnMethods, WebAuthnConfig, WebAuthnContext,
  WebAuthnRequest, WebAuthnUserConfig,
} from "./webauthn.js"

/** The built-in provider functions by id. */
export interface BuiltInProviders {
  credentials: typeof Credentials
  email: typeof Email
  forwardemail: typeof ForwardEmail
  github: typeof GitHub
  google: typeof Google
  nodemailer: typeof Nodemailer
  passkey: typeof Passkey
  postmark: typeof Postmark
  resend: typeof Resend
  sendgrid: typeof SendGrid
  tiktok: typeof TikTok
  twitter: typeof Twitter
  vk: typeof VK
  webauthn: typeof WebAuthn
}
