// Type tests: every type @auth/core/providers exports has a namesake in gatehouse/providers, and a value typed with
// @auth/core's name fits where Gatehouse uses that name. Known gaps are asserted `false` with the line to change, so the
// check fails (and must be flipped to `true`) once the gap is closed.
import type * as AuthJs from "@auth/core/providers"
import type { TiktokProfile as AuthJsTiktokProfile } from "@auth/core/providers/tiktok"
import type { WebAuthnConfig as AuthJsWebAuthnConfig } from "@auth/core/providers/webauthn"
import AuthJsCredentials from "@auth/core/providers/credentials"
import AuthJsGitHub, { type GitHubEmail as AuthJsGitHubEmail } from "@auth/core/providers/github"
import type { AuthConfig } from "gatehouse"
import type * as G from "gatehouse/providers"
import type { Provider } from "gatehouse/providers"
import type {
  CredentialInput as CredentialsInputFromSubpath,
  CredentialsProviderId as CredentialsIdFromSubpath,
} from "gatehouse/providers/credentials"
import GitHub, { type GitHubEmail, type GitHubProfile } from "gatehouse/providers/github"
import TikTok, { type TikTokProfile, type TiktokProfile } from "gatehouse/providers/tiktok"

type Assignable<A, B> = [A] extends [B] ? true : false
type Same<A, B> = Assignable<A, B> extends true ? Assignable<B, A> : false
interface P {
  sub: string
  email: string
}
/** An @auth/core OAuth config without `options` (checked whole in gap 1 below). */
type WithoutAccount<T> = T extends unknown ? Omit<T, "options"> : never

// ---------------------------------------------------------------------------------------------------------
// Each name exists, and @auth/core's type is assignable to Gatehouse's.
export const profileCallback: Assignable<AuthJs.ProfileCallback<P>, G.ProfileCallback<P>> = true
export const accountCallback: Assignable<AuthJs.AccountCallback, G.AccountCallback> = true
export const buttonStyles: Assignable<AuthJs.OAuthProviderButtonStyles, G.OAuthProviderButtonStyles> = true
export const endpointType: Same<AuthJs.OAuthEndpointType, G.OAuthEndpointType> = true
export const authorizationHandler: Assignable<AuthJs.AuthorizationEndpointHandler, G.AuthorizationEndpointHandler> =
  true
export const tokenHandler: Assignable<AuthJs.TokenEndpointHandler, G.TokenEndpointHandler> = true
export const userinfoHandler: Assignable<AuthJs.UserinfoEndpointHandler, G.UserinfoEndpointHandler> = true
export const oauthChecks: Assignable<AuthJs.OAuthChecks, G.OAuthChecks> = true
export const oauth2Config: Assignable<WithoutAccount<AuthJs.OAuth2Config<P>>, G.OAuth2Config<P>> = true
export const oidcConfig: Assignable<WithoutAccount<AuthJs.OIDCConfig<P>>, G.OIDCConfig<P>> = true
export const oauthConfig: Assignable<WithoutAccount<AuthJs.OAuthConfig<P>>, G.OAuthConfig<P>> = true
export const oauthUserConfig: Assignable<WithoutAccount<AuthJs.OAuthUserConfig<P>>, G.OAuthUserConfig<P>> = true
export const oidcUserConfig: Assignable<WithoutAccount<AuthJs.OIDCUserConfig<P>>, G.OIDCUserConfig<P>> = true
export const oidcInternal: Assignable<AuthJs.OIDCConfigInternal<P>, G.OIDCConfigInternal<P>> = true
export const emailConfig: Assignable<AuthJs.EmailConfig, G.EmailConfig> = true
export const emailUserConfig: Assignable<AuthJs.EmailUserConfig, G.EmailUserConfig> = true
export const emailParams: Assignable<
  AuthJs.EmailProviderSendVerificationRequestParams,
  G.EmailProviderSendVerificationRequestParams
> = true
export const emailType: Same<AuthJs.EmailProviderType, G.EmailProviderType> = true
export const credentialsConfig: Assignable<
  AuthJs.CredentialsConfig<{ email: { label: string }; password: { label: string; type: "password" } }>,
  G.CredentialsConfig
> = true
export const credentialsId: Same<AuthJs.CredentialsProviderId, G.CredentialsProviderId> = true
export const commonOptions: Same<AuthJs.CommonProviderOptions, G.CommonProviderOptions> = true
export const providerType: Same<AuthJs.ProviderType, G.ProviderType> = true
export const providerId: Assignable<AuthJs.ProviderId, G.ProviderId> = true
export const appProvider: Same<AuthJs.AppProvider, G.AppProvider> = true
export const tiktokProfile: Same<AuthJsTiktokProfile, TiktokProfile> = true
export const tiktokAlias: Same<TiktokProfile, TikTokProfile> = true
// An @auth/core e-mail or WebAuthn provider config goes in `providers` as it is.
export const emailProvider: Assignable<AuthJs.EmailConfig, G.Provider> = true
export const webAuthnProvider: Assignable<AuthJsWebAuthnConfig, G.Provider> = true

// The built-in id unions name Gatehouse's own built-in providers (generated from src/providers by
// scripts/sync-provider-exports.mjs), each an @auth/core id; a missing one shows in scripts/provider-coverage.mjs.
export const oauthIds: Assignable<G.OAuthProviderId, AuthJs.OAuthProviderId> = true
export const someOAuthIds: Assignable<
  "github" | "google" | "keycloak" | "discord" | "apple" | "zoom",
  G.OAuthProviderId
> = true
// Every @auth/core provider id is a Gatehouse one, but @auth/core's unions file two under another kind: its
// OAuthProviderId lists "loops" (an e-mail provider) and its EmailProviderId "passkey" (a WebAuthn provider).
// Gatehouse's unions put each id under its provider's kind, so only those two differ.
export const authjsOAuthIds: Same<Exclude<AuthJs.OAuthProviderId, G.OAuthProviderId>, "loops"> = true
export const authjsEmailIds: Same<Exclude<AuthJs.EmailProviderId, G.EmailProviderId>, "passkey"> = true
export const loopsIsEmail: Assignable<"loops", G.EmailProviderId> = true
export const passkeyIsWebAuthn: Assignable<"passkey", G.WebAuthnProviderId> = true
export const anyId: Assignable<"my-idp", G.ProviderId> = true
// Provider takes the profile type, as Auth.js's Provider<P> does.
export const typedProvider: Provider<GitHubProfile> = GitHub({ profile: (profile) => ({ id: String(profile.id) }) })
export const typedProviderFits: Assignable<Provider<GitHubProfile>, G.Provider> = true
export const builtIns: Same<
  keyof G.BuiltInProviders,
  G.CredentialsProviderId | G.EmailProviderId | G.OAuthProviderId | G.WebAuthnProviderId
> = true

// ---------------------------------------------------------------------------------------------------------
// Where Gatehouse uses the names: provider configs written against them go in `providers`; callbacks typed with them
// are accepted by the built-in providers.
const custom: G.OIDCConfig<P> = {
  id: "corp",
  name: "Corp",
  type: "oidc",
  issuer: "https://idp.example",
  clientId: "id",
  clientSecret: "s",
  checks: ["pkce", "nonce"],
  idToken: true,
  style: { brandColor: "#123456" },
  profile: (profile) => ({ id: profile.sub, email: profile.email }),
}
const oauth2: G.OAuthConfig<{ id: number }> = {
  id: "legacy",
  name: "Legacy",
  type: "oauth",
  authorization: { url: "https://legacy.example/authorize", params: { scope: "read" } },
  token: "https://legacy.example/token",
  userinfo: "https://legacy.example/me",
  checks: ["state"],
}
const toUser: G.ProfileCallback<GitHubProfile> = (profile) => ({ id: String(profile.id), name: profile.login })
const keep: G.AccountCallback = (tokens) => ({ access_token: tokens.access_token })
export const config: AuthConfig = {
  providers: [custom, oauth2, GitHub({ profile: toUser }), TikTok()] satisfies G.AppProviders,
}
export const appProviderShape: G.AppProvider = {
  id: "github",
  name: "GitHub",
  type: "oauth",
  signinUrl: "https://a.example/auth/signin/github",
  callbackUrl: "https://a.example/auth/callback/github",
}
void keep

// @ts-expect-error an OAuth 2 provider has no nonce check (that is OIDC)
export const oauth2Nonce: G.OAuth2Config<P> = { id: "x", name: "X", type: "oauth", checks: ["nonce"] }
// @ts-expect-error an e-mail provider needs sendVerificationRequest
export const emailWithoutSend: G.EmailConfig = { id: "email", name: "Email", type: "email" }

// ---------------------------------------------------------------------------------------------------------
// Once gaps, now closed:
// 1. @auth/core's AccountCallback may return void; OAuthConfigBase.account is that callback type, so an @auth/core OAuth
//    config, and an @auth/core provider function's result, go in `providers` as they are.
export const gap1OAuthConfig: Assignable<AuthJs.OAuthConfig<P>, G.OAuthConfig<P>> = true
export const gap1Provider: Assignable<AuthJs.OAuthConfig<P>, G.Provider> = true
export const authjsGitHub: AuthConfig = { providers: [AuthJsGitHub({ clientId: "id", clientSecret: "secret" })] }
// 2. @auth/core's CredentialInput takes its fields from preact's <input> props (`type` and `placeholder` may be signals);
//    Gatehouse's CredentialInput accepts them, so @auth/core's Credentials() result goes in `providers` too.
export const gap2CredentialInput: Assignable<AuthJs.CredentialInput, G.CredentialInput> = true
export const authjsCredentials: AuthConfig = {
  providers: [AuthJsCredentials({ credentials: { email: { label: "E-mail", type: "email" } }, authorize: () => null })],
}

// The per-provider modules carry @auth/core's names too.
export const gitHubEmail: Assignable<AuthJsGitHubEmail, GitHubEmail> = true
export const credentialInputFromSubpath: Same<CredentialsInputFromSubpath, G.CredentialInput> = true
export const credentialsIdFromSubpath: Same<AuthJs.CredentialsProviderId, CredentialsIdFromSubpath> = true
