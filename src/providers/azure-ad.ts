// Azure Active Directory: Microsoft Entra ID under its former name and id (`azure-ad`), kept for existing apps.
import MicrosoftEntraID, { type MicrosoftEntraIDOptions, type MicrosoftEntraIDProfile } from "./microsoft-entra-id.js"
import { readEnv } from "../lib/env.js"
import type { OAuthConfigBase } from "./types.js"

/** The claims of a Microsoft identity platform v2.0 ID token. */
export type AzureADProfile = MicrosoftEntraIDProfile

/**
 * Azure AD sign-in (same as `microsoft-entra-id`). Redirect URI: `<origin><basePath>/callback/azure-ad`.
 * Env: AUTH_AZURE_AD_ID, AUTH_AZURE_AD_SECRET, AUTH_AZURE_AD_ISSUER (or AUTH_MICROSOFT_ENTRA_ID_ISSUER), e.g.
 * `https://login.microsoftonline.com/<tenant id>/v2.0`; default `.../common/v2.0`.
 */
export default function AzureAD(
  options: MicrosoftEntraIDOptions<AzureADProfile> = {},
): OAuthConfigBase<AzureADProfile> {
  // AUTH_AZURE_AD_ISSUER first; MicrosoftEntraID falls back to AUTH_MICROSOFT_ENTRA_ID_ISSUER, then `common`.
  const issuer = options.issuer ?? readEnv("AUTH_AZURE_AD_ISSUER")
  return { ...MicrosoftEntraID({ ...options, issuer }), id: "azure-ad", name: "Azure Active Directory" }
}
export { AzureAD }
