// Public `gatehouse/providers/oauth`: the OAuth 2 / OpenID Connect provider types at @auth/core/providers/oauth's path
// (a type-only module; the types live in ./types.ts).
export type {
  AccountCallback,
  AuthorizationEndpointHandler,
  OAuth2Config,
  OAuthChecks,
  OAuthConfig,
  OAuthConfigBase,
  OAuthEndpointType,
  OAuthProviderButtonStyles,
  OAuthProviderId,
  OAuthUserConfig,
  OIDCConfig,
  OIDCConfigInternal,
  OIDCUserConfig,
  ProfileCallback,
  TokenEndpointHandler,
  UserinfoEndpointHandler,
} from "./types.js"
