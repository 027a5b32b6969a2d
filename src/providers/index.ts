// Public `gatehouse/providers`: the provider types, under the same names as @auth/core/providers (each built-in
// provider is its own subpath, `gatehouse/providers/<id>`).

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
export type { BuiltInProviders } from "./builtin.js"
