// Microsoft Entra ID (OpenID Connect): the tenant's v2.0 issuer (default the multi-tenant `common`); the photo comes from Graph.
import { toBase64 } from "#crypto"
import { readEnv } from "../lib/env.js"
import { customFetch } from "../symbols.js"
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of a Microsoft identity platform v2.0 ID token (`openid profile email`). */
export interface MicrosoftEntraIDProfile {
  iss: string
  sub: string
  aud: string
  exp: number
  iat: number
  nbf?: number
  /** The user's object id in the tenant (stable across apps). */
  oid: string
  /** The tenant the user signed in from. */
  tid: string
  name: string
  preferred_username: string
  /** Optional claim; present when the account has an e-mail address. */
  email: string
  login_hint: string
  nonce: string
  ver: "2.0"
  idp: string
  c_hash: string
  at_hash: string
  aio: string
  roles: string[]
  rh: string
  sid: string
  uti: string
  hasgroups: boolean
  acct: 0 | 1
  acrs: string
  auth_time: Date
  ctry: string
  fwd: string
  groups: string
  tenant_ctry: string
  tenant_region_scope: string
  upn: string
  verified_primary_email: string[]
  verified_secondary_email: string[]
  vnet: string
  xms_cc: string
  xms_edov: boolean
  xms_pdl: string
  xms_pl: string
  xms_tpl: string
  ztdid: string
  ipaddr: string
  onprem_sid: string
  pwd_exp: number
  pwd_url: string
  in_corp: string
  family_name: string
  given_name: string
  [claim: string]: unknown
}

/** Sizes Microsoft Graph serves profile photos in (`/me/photos/{size}/$value`). */
export type ProfilePhotoSize = 48 | 64 | 96 | 120 | 240 | 360 | 432 | 504 | 648

export type MicrosoftEntraIDOptions<P> = OIDCUserConfig<P> & {
  /** Photo size fetched from Graph (default 48); the photo becomes `user.image` as a data: URI. */
  profilePhotoSize?: ProfilePhotoSize
}

const GRAPH = "https://graph.microsoft.com/v1.0"

/** The Entra ID config under an id, a name and the env variables that may hold the issuer. */
function entraConfig<P extends MicrosoftEntraIDProfile>(
  id: string,
  name: string,
  envIssuer: string[],
  all: MicrosoftEntraIDOptions<P>,
): OAuthConfigBase<P> {
  const { profilePhotoSize = 48, ...options } = all
  const issuer =
    options.issuer ?? envIssuer.map(readEnv).find(Boolean) ?? "https://login.microsoftonline.com/common/v2.0"
  const userOptions = { ...options, issuer }
  return {
    id,
    name,
    type: "oidc",
    authorization: { params: { scope: "openid profile email User.Read" } },
    checks: ["pkce"],
    // `common` / `organizations`: discovery names `.../{tenantid}/v2.0`, and each ID token's iss has the user's tenant id (tid).
    issuerTemplate: { placeholder: "{tenantid}", claim: "tid" },
    async profile(profile, tokens) {
      let image: string | null = null
      if (tokens.access_token) {
        try {
          const f = (options[customFetch] as typeof fetch | undefined) ?? fetch
          const size = `${profilePhotoSize}x${profilePhotoSize}`
          const res = await f(`${GRAPH}/me/photos/${size}/$value`, {
            headers: { Authorization: `Bearer ${tokens.access_token}` },
          })
          // No photo is a 404; any failure leaves the image unset rather than failing the sign-in.
          if (res.ok) {
            const type = res.headers.get("content-type")?.split(";")[0] || "image/jpeg"
            image = `data:${type};base64,${toBase64(new Uint8Array(await res.arrayBuffer()))}`
          }
        } catch {}
      }
      return {
        id: profile.sub,
        name: profile.name ?? profile.preferred_username ?? null,
        email: profile.email ?? null,
        image,
      }
    },
    style: {
      // Four squares, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='%23fff'%3E%3Cpath d='M3 3h8v8H3zM13 3h8v8h-8zM3 13h8v8H3zM13 13h8v8h-8z'/%3E%3C/svg%3E",
      bg: "#0072c6",
      text: "#fff",
    },
    options: userOptions,
  }
}

/**
 * Microsoft Entra ID sign-in. Redirect URI to register (Web platform): `<origin><basePath>/callback/microsoft-entra-id`.
 * Env: AUTH_MICROSOFT_ENTRA_ID_ID, AUTH_MICROSOFT_ENTRA_ID_SECRET, AUTH_MICROSOFT_ENTRA_ID_ISSUER
 * (`https://login.microsoftonline.com/<tenant id>/v2.0`; default `.../common/v2.0`, any work, school or personal
 * account; `.../organizations/v2.0` for any work or school account). With a multi-tenant issuer, limit the tenants that
 * may sign in in the `signIn` callback (`profile.tid`). The photo needs `User.Read`.
 */
export default function MicrosoftEntraID(
  options: MicrosoftEntraIDOptions<MicrosoftEntraIDProfile> = {},
): OAuthConfigBase<MicrosoftEntraIDProfile> {
  return entraConfig("microsoft-entra-id", "Microsoft Entra ID", ["AUTH_MICROSOFT_ENTRA_ID_ISSUER"], options)
}
export { MicrosoftEntraID }
