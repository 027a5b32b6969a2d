// Public `gatehouse/providers/provider-types`: the built-in provider id unions at @auth/core's path (type-only).
export type {
  CredentialsProviderId,
  EmailProviderId,
  OAuthProviderId,
  ProviderId,
  WebAuthnProviderId,
} from "./types.js"
