// Azure DevOps (its own OAuth 2 dialect): `response_type=Assertion`, and the code exchanged through a JWT-bearer grant
// with the client secret as the client assertion. Deprecated by Microsoft: no new app registrations since 2025, and
// retirement planned for 2026; new apps should use Microsoft Entra ID.
import type { OAuthConfigBase, OAuthUserConfig, TokenRequestContext } from "./types.js"
import type { TokenSet } from "../records.js"

/** The body of `GET https://app.vssps.visualstudio.com/_apis/profile/profiles/me?details=true&coreAttributes=Avatar`. */
export interface AzureDevOpsProfile {
  id: string
  displayName: string
  emailAddress: string
  publicAlias?: string
  coreRevision?: number
  timeStamp?: string
  revision?: number
  /** With `coreAttributes=Avatar`: the avatar image, base64-encoded. */
  coreAttributes: { Avatar: { value: { value: string; contentType?: string } } }
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

const HOST = "https://app.vssps.visualstudio.com"

/**
 * The token request Azure DevOps documents: a form POST with the client secret as `client_assertion`, the code (or the
 * refresh token) as `assertion`, and the registered callback URL. The answer's `token_type` is `jwt-bearer`.
 */
async function assertionGrant({ grantType, params, refreshToken, provider, url, fetch }: TokenRequestContext) {
  const body = new URLSearchParams({
    client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
    client_assertion: provider.clientSecret ?? "",
    grant_type: grantType === "refresh_token" ? "refresh_token" : "urn:ietf:params:oauth:grant-type:jwt-bearer",
    assertion: (grantType === "refresh_token" ? refreshToken : params.code) ?? "",
    redirect_uri: provider.callbackUrl,
  })
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body,
  })
  // A failed grant is passed on as it came (an error body, or none): the token-response checks reject it.
  const tokens = (await response.json().catch(() => ({}))) as TokenSet
  // Azure DevOps names its token type "jwt-bearer": a JWT used as a bearer token (RFC 6750), as the profile call does.
  if (response.ok && tokens.token_type === "jwt-bearer") tokens.token_type = "bearer"
  return { tokens }
}

/**
 * Azure DevOps sign-in (deprecated by Microsoft). Callback URL to register (https only, also for localhost):
 * `<origin><basePath>/callback/azure-devops`. Env: AUTH_AZURE_DEVOPS_ID (the App ID), AUTH_AZURE_DEVOPS_SECRET (the
 * Client Secret). `scope`: the scopes registered with the app (default `vso.profile`). Refreshing the access token
 * (`refreshAccessToken: true`) sends the callback URL too, so it needs AUTH_URL.
 */
export default function AzureDevOps<P extends AzureDevOpsProfile>(
  options: OAuthUserConfig<P> & { scope?: string } = {},
): OAuthConfigBase<P> {
  const { scope = "vso.profile", ...rest } = options
  return {
    id: "azure-devops",
    name: "Azure DevOps",
    type: "oauth",
    // Azure DevOps documents `state`; it has no PKCE (the assertion grant carries no code_verifier).
    checks: ["state"],
    authorization: { url: `${HOST}/oauth2/authorize`, params: { response_type: "Assertion", scope } },
    token: { url: `${HOST}/oauth2/token`, request: assertionGrant },
    userinfo: `${HOST}/_apis/profile/profiles/me?details=true&coreAttributes=Avatar&api-version=6.0`,
    profile(profile) {
      const avatar = profile.coreAttributes?.Avatar?.value
      const type =
        avatar?.contentType && /^image\/[a-z0-9.+-]+$/i.test(avatar.contentType) ? avatar.contentType : "image/jpeg"
      return {
        id: profile.id,
        name: profile.displayName ?? null,
        email: profile.emailAddress ?? null,
        image: avatar?.value ? `data:${type};base64,${avatar.value}` : null,
      }
    },
    style: {
      // A stylised infinity-loop mark, drawn for Gatehouse, on Azure's blue.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23fff' stroke-width='2.2'%3E%3Cpath d='M4 7v10l5 3 11-4V8L9 4z'/%3E%3Cpath d='M9 4v16'/%3E%3C/svg%3E",
      bg: "#0078d4",
      text: "#fff",
    },
    options: rest,
  }
}
export { AzureDevOps }
