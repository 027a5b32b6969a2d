// Every gatehouse/v4/providers/<id> module against next-auth 4.24.15's own `next-auth/providers/<id>` (the oracle,
// loaded from node_modules): called the v4 way (`Provider({ clientId, clientSecret, issuer… })`), the Gatehouse
// provider has v4's id, a type of the same kind (OpenID Connect where v4 discovered from a wellKnown URL) and v4's
// endpoints, but for the differences listed in DIFFERENCES (each a change the catalogue made on purpose, documented
// in docs/migration.md "From next-auth v4"). Also: the module list is next-auth 4's, and the generated files and
// package.json subpaths are in step (scripts/sync-provider-exports.mjs --check).
import { execFileSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { createRequire } from "node:module"
import { describe, expect, it } from "vitest"
import { resolveOAuthProvider } from "../../src/config/oauth.js"
import type { OAuthConfigBase } from "../../src/providers/types.js"
import { nextAuthV4Module } from "../support/next-auth-v4.js"

const ROOT = new URL("../../", import.meta.url)
const require = createRequire(import.meta.url)
const V4_DIR = join(dirname(dirname(require.resolve("next-auth/jwt"))), "providers")
/** next-auth 4's provider modules; index and oauth hold types only. */
const V4_IDS = readdirSync(V4_DIR)
  .filter((f) => f.endsWith(".js") && !["index.js", "oauth.js", "oauth-types.js"].includes(f))
  .map((f) => f.slice(0, -3))
  .sort()
const OAUTH_IDS = V4_IDS.filter((id) => id !== "credentials" && id !== "email")

type Factory = (options: Record<string, unknown>) => Record<string, unknown>

async function gatehouseModule(id: string): Promise<Factory> {
  return ((await import(`../../src/integrations/next-v4/providers/${id}.ts`)) as { default: Factory }).default
}

/** The options a v4 app passes: client credentials, and the issuer or tenant where the provider is self-hosted. */
function v4Options(id: string): Record<string, unknown> {
  const base = { clientId: "client-id", clientSecret: "client-secret" }
  const issuer: Record<string, Record<string, unknown>> = {
    auth0: { issuer: "https://tenant.auth0.example" },
    authentik: { issuer: "https://authentik.example/application/o/app" },
    "azure-ad": { tenantId: "tenant-1" },
    "azure-ad-b2c": { tenantId: "contoso", primaryUserFlow: "B2C_1_signin" },
    battlenet: { issuer: "https://oauth.battle.net" },
    "boxyhq-saml": { issuer: "https://jackson.example" },
    cognito: { issuer: "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_pool" },
    "duende-identity-server6": { issuer: "https://duende.example" },
    fusionauth: { issuer: "https://fusionauth.example", tenantId: "tenant-9" },
    "identity-server4": { issuer: "https://ids4.example" },
    keycloak: { issuer: "https://keycloak.example/realms/app" },
    okta: { issuer: "https://dev-1.okta.example" },
    onelogin: { issuer: "https://acme.onelogin.example" },
    osso: { issuer: "https://osso.example/" },
    passage: { issuer: "https://auth.passage.example" },
    "united-effects": { issuer: "https://auth.unitedeffects.example/app" },
    zitadel: { issuer: "https://zitadel.example" },
  }
  return { ...base, ...issuer[id] }
}

/** An endpoint option as next-auth 4's parseProviders normalises it: a URL without its query. */
function v4Url(option: unknown): string | undefined {
  const raw = typeof option === "string" ? option : (option as { url?: string } | undefined)?.url
  if (raw === undefined) return undefined
  const url = new URL(raw.trim())
  return `${url.origin}${url.pathname}`
}

interface Shape {
  id: string
  /** "oauth", "oidc" (Gatehouse) or "oauth" + discovery (v4: a wellKnown URL), "oauth1". */
  kind: "oauth" | "oidc" | "oauth1"
  discovery?: string
  authorization?: string
  token?: string
  userinfo?: string
}

function v4Shape(p: Record<string, unknown>): Shape {
  if (typeof p.version === "string" && p.version.startsWith("1."))
    return {
      id: p.id as string,
      kind: "oauth1",
      authorization: v4Url(p.authorization),
      token: v4Url(p.accessTokenUrl),
      userinfo: v4Url(p.profileUrl),
    }
  const wellKnown = typeof p.wellKnown === "string" ? new URL(p.wellKnown) : undefined
  return {
    id: p.id as string,
    kind: wellKnown ? "oidc" : "oauth",
    ...(wellKnown ? { discovery: `${wellKnown.origin}${wellKnown.pathname}` } : {}),
    // HubSpot and Freshbooks name some endpoints the OAuth 1 way (v4 never read those for OAuth 2).
    authorization: v4Url(p.authorization ?? p.authorizationUrl),
    token: v4Url(p.token ?? p.tokenUrl ?? p.accessTokenUrl),
    userinfo: v4Url(p.userinfo ?? p.profileUrl),
  }
}

function gatehouseShape(p: Record<string, unknown>): Shape {
  const r = resolveOAuthProvider(p as OAuthConfigBase, undefined)
  const path = (url: URL | undefined) => (url ? `${url.origin}${url.pathname}` : undefined)
  if (r.oauth1)
    return {
      id: r.id,
      kind: "oauth1",
      authorization: path(r.oauth1.authorizationUrl),
      token: path(r.oauth1.accessTokenUrl),
      userinfo: path(r.oauth1.profileUrl),
    }
  const discovery =
    r.wellKnown ?? (r.oidc && r.issuer ? new URL(`${r.issuer}/.well-known/openid-configuration`) : undefined)
  return {
    id: r.id,
    kind: r.oidc ? "oidc" : "oauth",
    ...(discovery ? { discovery: path(discovery) } : {}),
    authorization: path(r.authorization.url),
    token: path(r.token.url),
    userinfo: path(r.userinfo.url),
  }
}

/**
 * Where the Gatehouse provider differs from next-auth 4.24.15's, field by field, and why. Anything not listed must
 * be equal. (The values are Gatehouse's.)
 */
const DIFFERENCES: Record<string, { fields: Partial<Shape>; why: string }> = {
  bungie: {
    fields: { userinfo: "https://www.bungie.net/Platform/User/GetMembershipsForCurrentUser/" },
    why: "v4's URL kept a literal {membershipId} placeholder; the catalogue reads the current user",
  },
  coinbase: {
    fields: {
      authorization: "https://login.coinbase.com/oauth2/auth",
      token: "https://login.coinbase.com/oauth2/token",
    },
    why: "Coinbase moved its OAuth endpoints to login.coinbase.com",
  },
  eveonline: {
    fields: { userinfo: "https://login.eveonline.com/oauth/jwks" },
    why: "EVE's /oauth/verify is retired: the profile is the access token (a JWT) checked against EVE's JWKS",
  },
  facebook: {
    fields: { authorization: "https://www.facebook.com/dialog/oauth" },
    why: "no pinned Graph API version (v11.0 is past its end of life)",
  },
  foursquare: {
    fields: { userinfo: "https://api.foursquare.com/v2/users/self" },
    why: "v4 set no URL (its request hook had it); the catalogue names it",
  },
  linkedin: {
    fields: {
      kind: "oidc",
      discovery: "https://www.linkedin.com/oauth/.well-known/openid-configuration",
      authorization: undefined,
      token: undefined,
      userinfo: undefined,
    },
    why: "LinkedIn's v2/me profile API for sign-in is retired: Sign In with LinkedIn using OpenID Connect",
  },
  patreon: {
    fields: { userinfo: "https://www.patreon.com/api/oauth2/v2/identity" },
    why: "Patreon's API v1 current_user is deprecated: API v2 identity",
  },
  pipedrive: {
    fields: { userinfo: "https://api.pipedrive.com/v1/users/me" },
    why: "the versioned API path (v4's unversioned path redirects)",
  },
  salesforce: {
    fields: {
      kind: "oidc",
      discovery: "https://login.salesforce.com/.well-known/openid-configuration",
      authorization: undefined,
      token: undefined,
      userinfo: undefined,
    },
    why: "Salesforce is an OpenID Connect provider: endpoints and ID token keys from discovery",
  },
  todoist: {
    fields: { userinfo: "https://api.todoist.com/api/v1/user" },
    why: "v4 set no URL (its request hook used the retired Sync v9 API); the catalogue names API v1's",
  },
  trakt: {
    fields: { userinfo: "https://api.trakt.tv/users/me" },
    why: "v4 set no URL (its request hook had it); the catalogue names it",
  },
  twitter: {
    fields: {
      authorization: "https://api.x.com/oauth/authenticate",
      token: "https://api.x.com/oauth/access_token",
      userinfo: "https://api.x.com/1.1/account/verify_credentials.json",
    },
    why: "api.twitter.com is now api.x.com",
  },
}

describe("gatehouse/v4/providers: the modules", () => {
  it("cover next-auth 4.24.15's provider modules, each with a catalogue provider", () => {
    expect(V4_IDS).toHaveLength(65)
    const generated = readdirSync(new URL("src/integrations/next-v4/providers/", ROOT))
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
      .map((f) => f.slice(0, -3))
    for (const id of V4_IDS) {
      expect(generated, id).toContain(id)
      expect(readdirSync(new URL("src/providers/", ROOT)), id).toContain(`${id}.ts`)
    }
    const manifest = JSON.parse(readFileSync(new URL("package.json", ROOT), "utf8")) as {
      exports: Record<string, { types: string; import: string }>
    }
    const subpaths = Object.keys(manifest.exports)
      .filter((k) => k.startsWith("./v4/providers/"))
      .map((k) => k.slice("./v4/providers/".length))
    expect(subpaths.sort()).toEqual([...V4_IDS, "oauth"].sort())
    expect(manifest.exports["./v4/providers/github"]).toEqual({
      types: "./dist/integrations/next-v4/providers/github.d.ts",
      import: "./dist/integrations/next-v4/providers/github.js",
    })
    expect(manifest.exports["./v4/adapters"]?.types).toBe("./dist/integrations/next-v4/adapters.d.ts")
  })

  it("are what scripts/sync-provider-exports.mjs generates (--check)", () => {
    const out = execFileSync(process.execPath, ["scripts/sync-provider-exports.mjs", "--check"], {
      cwd: new URL(".", ROOT),
      encoding: "utf8",
    })
    expect(out).toContain("65 next-auth 4 provider modules")
  })
})

describe("gatehouse/v4/providers/<id> against next-auth 4.24.15's module", () => {
  it.each(OAUTH_IDS)("%s: id, kind and endpoints", async (id) => {
    const options = v4Options(id)
    const theirs = v4Shape(nextAuthV4Module<Factory>(`providers/${id}`)(options))
    const ours = gatehouseShape((await gatehouseModule(id))(options))
    const expected: Shape = { ...theirs }
    // v4 discovered from a wellKnown URL and took the profile from the ID token (idToken: true, or inferred from the
    // openid-configuration URL): Gatehouse's type for that is "oidc". Endpoints then come from discovery.
    if (theirs.kind === "oidc") {
      expected.authorization = undefined
      expected.token = undefined
      expected.userinfo = undefined
    }
    const difference = DIFFERENCES[id]
    if (difference) {
      // A listed difference that is no difference is a stale entry.
      for (const [field, value] of Object.entries(difference.fields))
        expect(expected[field as keyof Shape], `${id}.${field} is listed as different`).not.toEqual(value)
      Object.assign(expected, difference.fields)
    }
    expect(ours, difference?.why).toEqual(JSON.parse(JSON.stringify(expected)))
  })

  it("credentials and email: same id and type", async () => {
    const authorize = () => null
    const v4Credentials = nextAuthV4Module<Factory>("providers/credentials")({ credentials: {}, authorize })
    const credentials = (await gatehouseModule("credentials"))({ credentials: {}, authorize })
    expect([credentials.id, credentials.type]).toEqual([v4Credentials.id, v4Credentials.type])
    const send = async () => {}
    const v4Email = nextAuthV4Module<Factory>("providers/email")({ sendVerificationRequest: send })
    const email = (await gatehouseModule("email"))({ sendVerificationRequest: send })
    expect([email.id, email.type, email.maxAge]).toEqual([v4Email.id, v4Email.type, v4Email.maxAge])
  })
})
