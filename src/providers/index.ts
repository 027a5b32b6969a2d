// Public provider types (the generic shapes every provider file builds on).
export type {
  Provider, ProviderConfig, ProviderType, CredentialsConfig, OAuthConfigBase, EmailConfigBase, WebAuthnConfigBase,
} from "./types.js"
