// WeChat (OAuth 2 with WeChat's names): the code exchanged by GET with appid/secret in the query, a token answer
// without token_type, errors as errcode with HTTP 200, openid userinfo.
import { OAuthCallbackError } from "../errors.js"
import type { OAuthConfigBase, OAuthUserConfig, TokenRequestContext } from "./types.js"
import type { TokenSet } from "../records.js"

/** The body of `GET https://api.weixin.qq.com/sns/userinfo`. */
export interface WeChatProfile {
  openid: string
  nickname: string
  sex: number
  province: string
  city: string
  country: string
  headimgurl: string
  privilege: string[]
  /** Present when the app is bound to a WeChat Open Platform account: the same person across the account's apps. */
  unionid: string
  [key: string]: unknown
}

const API = "https://api.weixin.qq.com/sns"
/** WeChat answers errors with HTTP 200 and `{ errcode, errmsg }`. */
function wechatError(body: unknown): OAuthCallbackError | undefined {
  const code = (body as { errcode?: unknown } | undefined)?.errcode
  return typeof code === "number" && code !== 0 ? new OAuthCallbackError(`WeChat returned errcode ${code}`) : undefined
}

/**
 * WeChat's token requests, as its web-authorization guide documents them: `GET /sns/oauth2/access_token?appid=&secret=
 * &code=&grant_type=authorization_code`, and `GET /sns/oauth2/refresh_token?appid=&grant_type=refresh_token
 * &refresh_token=` for a refresh. The answer has no token_type (it is a bearer-like token sent as a query parameter).
 */
async function wechatToken({ grantType, params, refreshToken, provider, url, fetch }: TokenRequestContext) {
  // The refresh endpoint sits beside the token endpoint (…/sns/oauth2/refresh_token), also when the URL is overridden.
  const u = new URL(grantType === "refresh_token" ? new URL("refresh_token", url) : url)
  u.searchParams.set("appid", provider.clientId)
  if (grantType === "refresh_token") {
    u.searchParams.set("grant_type", "refresh_token")
    u.searchParams.set("refresh_token", refreshToken ?? "")
  } else {
    u.searchParams.set("secret", provider.clientSecret ?? "")
    u.searchParams.set("code", params.code ?? "")
    u.searchParams.set("grant_type", "authorization_code")
  }
  const body = (await (await fetch(u, { headers: { accept: "application/json" } })).json().catch(() => undefined)) as
    | TokenSet
    | undefined
  const error = wechatError(body)
  if (error) throw error
  return {
    tokens:
      body && body.token_type === undefined && typeof body.access_token === "string"
        ? { ...body, token_type: "bearer" as const }
        : (body ?? {}),
  }
}

/**
 * WeChat sign-in. Callback URL to register (its domain as the app's authorised callback domain):
 * `<origin><basePath>/callback/wechat`. Env: AUTH_WECHAT_ID (the AppID), AUTH_WECHAT_SECRET (the AppSecret).
 * `platformType`: "OfficialAccount" (default; inside WeChat, scope snsapi_userinfo) or "WebsiteApp" (QR-code login on
 * the web, scope snsapi_login). The user id is the `unionid`, so the app must be bound to an Open Platform account.
 */
export default function WeChat(
  options: OAuthUserConfig<WeChatProfile> & { platformType?: "OfficialAccount" | "WebsiteApp" } = {},
): OAuthConfigBase<WeChatProfile> {
  const { platformType = "OfficialAccount", ...rest } = options
  const official = platformType === "OfficialAccount"
  const appid = ({ clientId }: { clientId: string }) => clientId
  return {
    id: "wechat",
    name: "WeChat",
    type: "oauth",
    checks: ["state"],
    authorization: {
      url: official
        ? "https://open.weixin.qq.com/connect/oauth2/authorize"
        : "https://open.weixin.qq.com/connect/qrconnect",
      params: { appid, scope: official ? "snsapi_userinfo" : "snsapi_login" },
    },
    // The secret travels only in WeChat's token query (its documented form), never to the authorization page.
    token: { url: `${API}/oauth2/access_token`, request: wechatToken },
    userinfo: {
      url: `${API}/userinfo`,
      async request({ tokens, fetch, url }) {
        const u = new URL(url)
        u.searchParams.set("access_token", String(tokens.access_token))
        u.searchParams.set("openid", String(tokens.openid))
        u.searchParams.set("lang", "zh_CN")
        const body: unknown = await (await fetch(u)).json()
        const error = wechatError(body)
        if (error) throw error
        return body as Record<string, unknown>
      },
    },
    profile(profile) {
      return {
        id: profile.unionid ?? "",
        name: profile.nickname ?? null,
        email: null,
        image: profile.headimgurl ?? null,
      }
    },
    style: {
      // Two speech bubbles, drawn for Gatehouse, on WeChat's green with dark text.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cellipse cx='9' cy='9.5' rx='7' ry='5.5'/%3E%3Cellipse cx='15.5' cy='14.5' rx='6' ry='4.8' fill='none' stroke='%23000' stroke-width='1.8'/%3E%3C/svg%3E",
      bg: "#07c160",
      text: "#000",
    },
    options: rest,
  }
}
export { WeChat }
