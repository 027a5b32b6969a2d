// Oracle NetSuite (OAuth 2): per-account endpoints from `accountID`; the profile from a RESTlet the app deploys.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** What `runtime.getCurrentUser()` gives in a RESTlet or Suitelet (the object the userinfo RESTlet returns). */
export interface NetSuiteProfile {
  id: number | string
  name: string
  email: string
  location: number
  role: number
  roleId?: string
  roleCenter?: string
  contact?: number
  subsidiary?: number
  department?: number
  [key: string]: unknown
}

/** NetSuite's own options (Auth.js's names). */
export interface OAuthNetSuiteOptions {
  /** The account id as in the account's URLs: `1234567`, `TSTDRV1234567`, or `1234567-SB1` for a sandbox. */
  accountID?: string
  /** `none`, `login`, `consent` or `login consent`: when NetSuite shows its login / consent screen. */
  prompt?: string
  /** Default `restlets rest_webservices`. */
  scope?: string
}

/**
 * NetSuite sign-in. Callback URL to register on the integration record: `<origin><basePath>/callback/netsuite`.
 * Env: AUTH_NETSUITE_ID, AUTH_NETSUITE_SECRET. Required: `accountID` (the account id as it appears in the
 * account's URLs, e.g. `1234567` or `1234567-sb1`) and `userinfo`, the URL of a RESTlet that returns
 * `runtime.getCurrentUser()`; NetSuite has no fixed userinfo endpoint.
 */
export default function NetSuite<P extends NetSuiteProfile>(
  options: OAuthUserConfig<P> & OAuthNetSuiteOptions = {},
): OAuthConfigBase<P> {
  const { accountID = "", prompt, scope = "restlets rest_webservices", ...rest } = options
  // Without an accountID the URLs carry a placeholder no URL parser accepts, so the config check names the endpoint.
  const host = accountID ? accountID.toLowerCase().replace(/_/g, "-") : "<accountID>"
  return {
    id: "netsuite",
    name: "NetSuite",
    type: "oauth",
    checks: ["state"],
    authorization: {
      url: `https://${host}.app.netsuite.com/app/login/oauth2/authorize.nl`,
      params: { scope, ...(prompt ? { prompt } : {}) },
    },
    token: `https://${host}.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token`,
    profile(profile) {
      return {
        id: profile.id != null ? String(profile.id) : "",
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: null,
      }
    },
    style: {
      // An N in a square, drawn for Gatehouse.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Crect x='3' y='3' width='18' height='18' rx='2' fill='none' stroke='%23fbfbfb' stroke-width='2'/%3E%3Cpath fill='%23fbfbfb' d='M7 17V7h2.5l5 6.5V7H17v10h-2.5l-5-6.5V17z'/%3E%3C/svg%3E",
      bg: "#181a1b",
      text: "#fbfbfb",
    },
    options: rest,
  }
}
export { NetSuite }
