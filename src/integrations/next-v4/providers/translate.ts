// next-auth 4's OAuth provider options onto Gatehouse's: the one translator behind every gatehouse/v4/providers/<id>
// module (each is the catalogue provider of src/providers/<id>.ts called with translated options, plus the renames
// below) and behind custom provider objects in a gatehouse/v4 config (fromV4Provider). No provider data lives here.
import { InvalidEndpoints } from "../../../errors.js"
import type { OAuthConfigBase, TokenRequestContext } from "../../../providers/types.js"
import type { TokenSet } from "../../../records.js"
import { v4Client, v4TokenSet } from "./client.js"
import type { CatalogueProvider, V4ProviderOptions } from "./oauth.js"
import { isTranslated, markTranslated } from "./marks.js"
import { v4CredentialsConfig } from "./v4-credentials.js"

type Options = Record<string, unknown>

function isObject(value: unknown): value is Options {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

/** The path a discovery document sits at under its issuer (OIDC Discovery §4; RFC 8414 §3 for OAuth servers). */
const WELL_KNOWN = /\/\.well-known\/(openid-configuration|oauth-authorization-server)$/

/** The issuer of a `<issuer>/.well-known/openid-configuration` URL (query ignored, as Azure AD's `?appid=`). */
function issuerOfWellKnown(wellKnown: string): string | undefined {
  let url: URL
  try {
    url = new URL(wellKnown)
  } catch {
    return undefined
  }
  if (!WELL_KNOWN.test(url.pathname)) return undefined
  return `${url.origin}${url.pathname.replace(WELL_KNOWN, "")}`
}

/** v4 passed object-valued authorization parameters (Twitch's `claims`) as JSON, as openid-client does. */
function jsonParams(params: unknown): unknown {
  if (!isObject(params)) return params
  const out: Options = {}
  for (const [key, value] of Object.entries(params))
    out[key] = isObject(value) || Array.isArray(value) ? JSON.stringify(value) : value
  return out
}

function urlOf(option: unknown): string | undefined {
  if (typeof option === "string") return option
  if (isObject(option) && (typeof option.url === "string" || option.url instanceof URL)) return String(option.url)
  return undefined
}

/** `signinUrl` and `callbackUrl` as v4 handed them to hooks, where Gatehouse knows the callback URL. */
function v4ProviderView(provider: Options, callbackUrl: string | undefined): Options {
  if (!callbackUrl) return provider
  return { ...provider, callbackUrl, signinUrl: callbackUrl.replace(/\/callback\/([^/]+)$/, "/signin/$1") }
}

function clientOf(provider: Options, fetch: typeof globalThis.fetch, urls: { token?: string; userinfo?: string }) {
  return v4Client({
    clientId: typeof provider.clientId === "string" ? provider.clientId : "",
    clientSecret: typeof provider.clientSecret === "string" ? provider.clientSecret : undefined,
    client: isObject(provider.client) ? provider.client : undefined,
    callbackUrl: typeof provider.callbackUrl === "string" ? provider.callbackUrl : undefined,
    issuer: typeof provider.issuer === "string" ? provider.issuer : undefined,
    authorizationUrl: urlOf(provider.authorization),
    tokenUrl: urls.token ?? urlOf(provider.token),
    userinfoUrl: urls.userinfo ?? urlOf(provider.userinfo),
    fetch,
  })
}

type Hook = (context: Options) => unknown

/**
 * A token `request` hook given both contexts: Gatehouse's (grantType, params, checks, provider, url, fetch) and v4's
 * (`client`, and `provider` with `signinUrl`). A hook written for either reads what it knows.
 */
function tokenHook(request: Hook) {
  return (context: TokenRequestContext) => {
    const provider = context.provider as unknown as Options
    return request({
      ...context,
      provider: v4ProviderView(provider, context.provider.callbackUrl),
      client: clientOf(provider, context.fetch, { token: context.url }),
    }) as { tokens: TokenSet }
  }
}

/** A userinfo `request` hook given both contexts; the tokens carry openid-client's `claims()`. */
function userinfoHook(request: Hook) {
  return (context: { tokens: TokenSet; provider: OAuthConfigBase; fetch: typeof fetch; url: string }) => {
    const provider = context.provider as unknown as Options
    return request({
      ...context,
      tokens: v4TokenSet(context.tokens),
      provider: v4ProviderView(provider, typeof provider.callbackUrl === "string" ? provider.callbackUrl : undefined),
      client: clientOf(provider, context.fetch, { userinfo: context.url }),
    }) as Record<string, unknown>
  }
}

/** An endpoint option: a string stays; an object keeps its fields, with its params and `request` hook translated. */
function endpoint(option: unknown, kind: "authorization" | "token" | "userinfo"): unknown {
  if (!isObject(option)) return option
  const { request, ...rest } = option
  const out: Options = { ...rest }
  if (rest.params !== undefined) out.params = kind === "authorization" ? jsonParams(rest.params) : rest.params
  // next-auth 4 never called an authorization `request`; Gatehouse has none either.
  if (typeof request === "function" && kind !== "authorization")
    out.request = kind === "token" ? tokenHook(request as Hook) : userinfoHook(request as Hook)
  return out
}

/**
 * next-auth 4 OAuth options as Gatehouse's: `httpOptions.timeout` → `timeout`, a lone `checks` string → an array,
 * object-valued authorization params → JSON, the token / userinfo `request` hooks given v4's `client` and `provider`,
 * and `wellKnown` with the `issuer` it names (Gatehouse discovers from an issuer). Other options pass as they are.
 */
function fromV4OAuthOptions(v4: Options): Options {
  const { httpOptions, checks, ...out } = v4
  if (isObject(httpOptions) && typeof httpOptions.timeout === "number" && out.timeout === undefined)
    out.timeout = httpOptions.timeout
  if (typeof checks === "string") out.checks = [checks]
  else if (checks !== undefined) out.checks = checks
  for (const kind of ["authorization", "token", "userinfo"] as const)
    if (out[kind] !== undefined) out[kind] = endpoint(out[kind], kind)
  if (typeof out.wellKnown === "string" && out.issuer === undefined) {
    const issuer = issuerOfWellKnown(out.wellKnown)
    if (issuer) out.issuer = issuer
  }
  return out
}

/** The v4 name of an option the catalogue spells differently, per provider id (docs/migration.md lists them). */
interface Rename {
  /** Options as the catalogue provider takes them, from the v4 options (after fromV4OAuthOptions). */
  options?(v4: Options): Options
  /** The catalogue's provider changed to what next-auth 4 announced (id, name, discovery URL), from the v4 options. */
  provider?(provider: OAuthConfigBase<object>, v4: Options): OAuthConfigBase<object>
}

const MICROSOFT_LOGIN = "https://login.microsoftonline.com"

const RENAMES: Record<string, Rename> = {
  // v4: `tenantId` (default "common") and discovery with `?appid=<clientId>`, which makes Microsoft name the app's own
  // signing keys when it has claims mapping.
  "azure-ad": {
    options: ({ tenantId, ...v4 }) =>
      typeof tenantId === "string" && v4.issuer === undefined
        ? { ...v4, issuer: `${MICROSOFT_LOGIN}/${tenantId}/v2.0` }
        : v4,
    provider(provider, v4) {
      const issuer = (provider.options as Options | undefined)?.issuer
      if (typeof v4.clientId !== "string" || typeof issuer !== "string" || v4.wellKnown !== undefined) return provider
      const wellKnown = `${issuer.replace(/\/$/, "")}/.well-known/openid-configuration?appid=${encodeURIComponent(v4.clientId)}`
      return { ...provider, options: { ...provider.options, wellKnown } }
    },
  },
  // v4: `tenantId` and `primaryUserFlow` name the issuer when `issuer` is not given.
  "azure-ad-b2c": {
    options: ({ tenantId, primaryUserFlow, ...v4 }) =>
      v4.issuer === undefined && typeof tenantId === "string" && typeof primaryUserFlow === "string"
        ? { ...v4, issuer: `https://${tenantId}.b2clogin.com/${tenantId}.onmicrosoft.com/${primaryUserFlow}/v2.0` }
        : v4,
    provider: (provider) => ({ ...provider, name: "Azure Active Directory B2C" }),
  },
  // v4 apps send the API key as a header option (`headers` or `httpOptions.headers`); the catalogue takes `apiKey`.
  bungie: {
    options(v4) {
      const { headers, ...rest } = v4
      const fromHttp = isObject(v4.httpOptions) ? v4.httpOptions.headers : undefined
      const key = [headers, fromHttp]
        .filter(isObject)
        .map((h) => Object.entries(h).find(([name]) => name.toLowerCase() === "x-api-key")?.[1])
        .find((value) => typeof value === "string")
      return rest.apiKey === undefined && key !== undefined ? { ...rest, apiKey: key } : rest
    },
  },
  // next-auth 4's id for this file was "duende-identityserver6": callback URLs and account rows keep it.
  "duende-identity-server6": { provider: (provider) => ({ ...provider, id: "duende-identityserver6" }) },
  osu: { provider: (provider) => ({ ...provider, name: "Osu!" }) },
  twitter: {
    provider: (provider) => (provider.version === "2.0" ? provider : { ...provider, name: "Twitter (Legacy)" }),
  },
}

/** The default export of gatehouse/v4/providers/<id> for a catalogue OAuth provider. */
export function v4OAuthProvider<F extends CatalogueProvider>(
  id: string,
  catalogue: F,
): (options?: V4ProviderOptions<F>) => ReturnType<F> {
  const rename = RENAMES[id]
  return (options = {} as V4ProviderOptions<F>) => {
    const v4 = fromV4OAuthOptions(options as Options)
    const provider = (catalogue as unknown as (options: Options) => OAuthConfigBase<object>)(
      rename?.options ? rename.options(v4) : v4,
    )
    return markTranslated(rename?.provider ? rename.provider(provider, v4) : provider) as ReturnType<F>
  }
}

/**
 * A custom next-auth 4 OAuth provider object (`{ id, type: "oauth", … }`, with its user `options` if a provider
 * function made it) as Gatehouse's: options translated as for the modules; `idToken: true`, or a `wellKnown` discovery
 * URL and no `idToken: false`, makes it OpenID Connect (`type: "oidc"`), whose issuer Gatehouse needs; a `version`
 * of 1.x is OAuth 1.0a, with `authorization` as its authorize URL.
 */
function fromV4OAuthProvider(v4: Options): OAuthConfigBase {
  const { options: userOptions, ...defaults } = v4
  const out = fromV4OAuthOptions(defaults)
  const user = isObject(userOptions) ? fromV4OAuthOptions(userOptions) : undefined
  const merged = { ...out, ...user }
  if (typeof merged.version === "string" && merged.version.startsWith("1.")) {
    out.version = "1.0A"
    if (user?.version !== undefined) user.version = "1.0A"
    if (out.authorizationUrl === undefined && urlOf(out.authorization) !== undefined) {
      out.authorizationUrl = urlOf(out.authorization)
      delete out.authorization
    }
  } else if (merged.idToken === true || (merged.idToken === undefined && typeof merged.wellKnown === "string")) {
    if (merged.issuer === undefined)
      throw new InvalidEndpoints(
        `Provider "${String(merged.id)}": its \`wellKnown\` (${String(merged.wellKnown)}) does not end in /.well-known/openid-configuration, so set \`issuer\` too (Gatehouse checks the discovered issuer).`,
      )
    out.type = "oidc"
    out.idToken = merged.idToken ?? true
  }
  return { ...out, ...(user ? { options: user } : {}) } as OAuthConfigBase
}

/**
 * A provider of a gatehouse/v4 config as Gatehouse's: what a gatehouse/v4/providers module made passes as it is; a
 * custom next-auth 4 OAuth object is translated (fromV4OAuthProvider); a credentials object gets v4's
 * `authorize(credentials, req)`. Anything else (e-mail, Gatehouse's own providers of other types) passes as it is.
 */
export function fromV4Provider<T>(provider: T): T {
  if (!isObject(provider) || isTranslated(provider)) return provider
  if (provider.type === "oauth") return markTranslated(fromV4OAuthProvider(provider)) as T
  if (provider.type === "credentials") return markTranslated(v4CredentialsConfig(provider)) as T
  return provider
}
