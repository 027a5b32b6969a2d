// Type tests (compiled by tsc, never run): app code written against @auth/core's types compiles unchanged against
// Gatehouse's (callbacks, events, Session, User, Account, Profile, JWT, adapter records, provider options and profiles),
// and a key-by-key guard: every field an Auth.js type declares reads, in Gatehouse's namesake, as a type Auth.js code
// accepts. The few deliberate exceptions are named below and in docs/differences.md ("Types").
import type { AuthConfig as AuthJsConfig } from "@auth/core"
import type * as A from "@auth/core/types"
import type * as AJ from "@auth/core/jwt"
import type * as AA from "@auth/core/adapters"
import type * as ACr from "@auth/core/providers/credentials"
import type * as AE from "@auth/core/providers/email"
import type { AppleProfile as AApple } from "@auth/core/providers/apple"
import type { Auth0Profile as AAuth0 } from "@auth/core/providers/auth0"
import type { DiscordProfile as ADiscord } from "@auth/core/providers/discord"
import type { FacebookProfile as AFacebook } from "@auth/core/providers/facebook"
import type { GitHubProfile as AGitHub } from "@auth/core/providers/github"
import type { GitLabProfile as AGitLab } from "@auth/core/providers/gitlab"
import type { GoogleProfile as AGoogle } from "@auth/core/providers/google"
import type { KeycloakProfile as AKeycloak } from "@auth/core/providers/keycloak"
import type { LinkedInProfile as ALinkedIn } from "@auth/core/providers/linkedin"
import type { MicrosoftEntraIDProfile as AEntra } from "@auth/core/providers/microsoft-entra-id"
import type { OktaProfile as AOkta } from "@auth/core/providers/okta"
import type { SlackProfile as ASlack } from "@auth/core/providers/slack"
import type { SpotifyProfile as ASpotify } from "@auth/core/providers/spotify"
import type { TwitchProfile as ATwitch } from "@auth/core/providers/twitch"
import type { ZitadelProfile as AZitadel } from "@auth/core/providers/zitadel"
import { Auth, type AuthConfig } from "gatehouse"
import type { Account, DefaultSession, Profile, Session, TokenSet, User } from "gatehouse/types"
import type * as G from "gatehouse/types"
import { getToken, type JWT } from "gatehouse/jwt"
import type * as GJ from "gatehouse/jwt"
import { isDate, type Adapter, type AdapterAccount, type AdapterUser } from "gatehouse/adapters"
import type * as GA from "gatehouse/adapters"
import { CredentialsSignin } from "gatehouse/errors"
import type { OAuthConfig, OAuthUserConfig, OIDCConfig, Provider } from "gatehouse/providers"
import Credentials from "gatehouse/providers/credentials"
import type * as GCr from "gatehouse/providers/credentials"
import type * as GE from "gatehouse/providers/email"
import Apple, { type AppleProfile } from "gatehouse/providers/apple"
import type { Auth0Profile } from "gatehouse/providers/auth0"
import Discord, { type DiscordProfile } from "gatehouse/providers/discord"
import Facebook, { type FacebookProfile } from "gatehouse/providers/facebook"
import GitHub, { type GitHubProfile } from "gatehouse/providers/github"
import type { GitLabProfile } from "gatehouse/providers/gitlab"
import Google, { type GoogleProfile } from "gatehouse/providers/google"
import Keycloak, { type KeycloakProfile } from "gatehouse/providers/keycloak"
import type { LinkedInProfile } from "gatehouse/providers/linkedin"
import MicrosoftEntraID, { type MicrosoftEntraIDProfile } from "gatehouse/providers/microsoft-entra-id"
import type { OktaProfile } from "gatehouse/providers/okta"
import type { SlackProfile } from "gatehouse/providers/slack"
import Spotify, { type SpotifyProfile } from "gatehouse/providers/spotify"
import type { TwitchProfile } from "gatehouse/providers/twitch"
import type { ZitadelProfile } from "gatehouse/providers/zitadel"
import Nodemailer from "gatehouse/providers/nodemailer"

// Augmentation as the Auth.js docs write it (optional fields, so the other type tests are unaffected). JWT is augmented
// here through "gatehouse/types", as integrations.test-d.ts does: TypeScript does not merge one interface augmented
// through two module names that re-export it. The Auth.js spelling (`declare module "gatehouse/jwt"`) is compiled on
// its own by test/pack.test.ts (test/support/pack-consumer/authjs-app.ts).
declare module "gatehouse/types" {
  interface Session {
    accessToken?: string
    error?: "RefreshAccessTokenError"
  }
  interface User {
    username?: string | null
  }
  interface JWT {
    access_token?: string
    expires_at?: number
    refresh_token?: string
    error?: "RefreshAccessTokenError"
  }
}

declare function findUser(email: string, passwordHash: string): Promise<{ id: string; email: string } | null>

// ---------------------------------------------------------------------------------------------------------
// App code: every callback parameter used as Auth.js apps use it.
const providers: Provider[] = [
  GitHub({
    profile: (profile) => ({
      id: profile.id.toString(),
      name: profile.name ?? profile.login,
      email: profile.email,
      image: profile.avatar_url,
      username: profile.login,
    }),
  }),
  Google({
    authorization: { params: { prompt: "consent", access_type: "offline", response_type: "code" } },
    profile: (profile) => ({
      id: profile.sub,
      name: profile.name.trim(),
      email: profile.email,
      image: profile.picture,
      username: profile.hd ?? profile.given_name,
    }),
  }),
  Keycloak({
    profile: (profile) => ({
      id: profile.sub,
      name: profile.preferred_username,
      email: profile.email,
      roles: profile.realm_access?.roles,
    }),
  }),
  MicrosoftEntraID({
    profile: (profile) => ({
      id: profile.oid,
      name: profile.name,
      email: profile.email ?? profile.preferred_username.toLowerCase(),
      roles: profile.roles,
    }),
  }),
  Facebook({ profile: (profile) => ({ id: profile.id, name: profile.name, image: profile.picture.data.url }) }),
  Spotify({
    profile: (profile) => ({
      id: profile.id,
      name: profile.display_name,
      email: profile.email,
      image: profile.images[0]?.url,
    }),
  }),
  Discord({
    profile: (profile) => ({
      id: profile.id,
      name: profile.global_name ?? profile.username,
      image: profile.image_url,
      email: profile.verified ? profile.email : null,
    }),
  }),
  Apple({
    profile: (profile) => ({
      id: profile.sub,
      email: profile.email,
      name: profile.user ? `${profile.user.name.firstName} ${profile.user.name.lastName}` : profile.email,
    }),
  }),
  Credentials({
    credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
    authorize: async (credentials) => {
      const user = await findUser(credentials.email as string, credentials.password as string)
      if (!user) throw new CredentialsSignin("Invalid credentials.")
      return user
    },
  }),
  Nodemailer({ server: "smtp://localhost:25", from: "auth@example.com" }),
]

export const config = {
  providers,
  session: { strategy: "jwt" },
  callbacks: {
    async signIn({ user, account, profile, email, credentials }) {
      if (email?.verificationRequest || credentials) return true
      if (account?.provider === "google")
        return !!profile?.email_verified && (profile.email?.endsWith("@example.com") ?? false)
      const verified: boolean = profile?.email_verified ?? false
      return verified || user.email ? true : "/unverified"
    },
    redirect: ({ url, baseUrl }) =>
      url.startsWith("/") ? `${baseUrl}${url}` : new URL(url).origin === baseUrl ? url : baseUrl,
    async jwt({ token, user, account, profile, trigger, isNewUser, session }) {
      // The line of the official Next.js example that failed with TS18046 ("'session' is of type 'unknown'").
      if (trigger === "update") token.name = session.user.name
      if (user) token.username = user.username
      if (isNewUser) token.isNew = true
      if (profile) {
        token.login = profile.login
        token.picture = profile.picture
        token.locale = profile.locale ?? undefined
      }
      if (account) {
        const expiresIn: number = account.expires_in ?? 0
        return {
          ...token,
          access_token: account.access_token,
          expires_at: account.expires_at ?? Math.floor(Date.now() / 1000) + expiresIn,
          refresh_token: account.refresh_token,
        }
      }
      if (token.expires_at && Date.now() < token.expires_at * 1000) return token
      const response = await fetch("https://oauth2.googleapis.com/token", {
        method: "POST",
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token.refresh_token ?? "" }),
      })
      const tokens = (await response.json()) as { access_token: string; expires_in: number; refresh_token?: string }
      if (!response.ok) return { ...token, error: "RefreshAccessTokenError" as const }
      token.access_token = tokens.access_token
      token.expires_at = Math.floor(Date.now() / 1000 + tokens.expires_in)
      return token
    },
    async session({ session, token, user, newSession, trigger }) {
      session.user.id = token.sub as string
      if (user) session.user.id = user.id
      session.accessToken = token.access_token
      session.error = token.error
      if (trigger === "update" && newSession?.name) session.user.name = newSession.name
      return session
    },
  },
  events: {
    async signIn({ user, account, profile, isNewUser }) {
      void [user.id, account?.access_token, profile?.email, isNewUser]
    },
    async signOut(message) {
      void ("session" in message ? message.session?.sessionToken : message.token?.sub)
    },
    async createUser({ user }) {
      void user.email
    },
    async updateUser({ user }) {
      void user.name
    },
    async linkAccount({ user, account, profile }) {
      void [user.id, account.providerAccountId, profile.email]
    },
    async session({ session, token }) {
      void [session.user?.name, token.sub]
    },
  },
} satisfies AuthConfig

export const handle = (request: Request): Promise<Response> => Auth(request, config)
export const databaseCallbacks: AuthConfig["callbacks"] = {
  session({ session, user }) {
    session.user.id = user.id
    return session
  },
}

// A custom provider as the Auth.js docs write one, with the generic provider option types.
interface AcmeProfile extends Record<string, any> {
  id: string
  login: string
  avatar: string
}
export function Acme<P extends AcmeProfile>(options: OAuthUserConfig<P>): OAuthConfig<P> {
  return {
    id: "acme",
    name: "Acme",
    type: "oauth",
    authorization: { url: "https://acme.example/authorize", params: { scope: "read" } },
    token: "https://acme.example/token",
    userinfo: "https://acme.example/me",
    profile: (profile) => ({ id: profile.id, name: profile.login, email: profile.email, image: profile.avatar }),
    options,
  }
}
export const corp: OIDCConfig<Profile> = {
  id: "corp",
  name: "Corp",
  type: "oidc",
  issuer: "https://idp.example",
  profile: (profile, tokens) => ({
    id: profile.sub ?? undefined,
    name: profile.name ?? profile.preferred_username,
    email: profile.email,
    image: profile.picture,
    token: tokens.access_token?.slice(0, 4),
  }),
}

// Records and reads as app code makes them.
export const account: Account = {
  provider: "github",
  type: "oauth",
  providerAccountId: "1",
  access_token: "t",
  expires_in: 3600,
  token_type: "bearer",
}
export const user: User = { id: "1", name: null, email: "a@example.com", image: null }
export const profile: Profile = {
  sub: "1",
  email: "a@example.com",
  email_verified: true,
  picture: "https://img.example/a.png",
  locale: "en",
}
export const token: JWT = { sub: "1", name: "A", picture: null, access_token: "t" }
export const tokens: TokenSet = { access_token: "t", token_type: "bearer", expires_in: 3600, scope: "openid" }
export const adapterUser: AdapterUser = { id: "1", email: "a@example.com", emailVerified: null }
export const adapterAccount: AdapterAccount = { ...account, type: "oauth", userId: "1" }
export const defaultUser: DefaultSession["user"] = { name: "A" }
export function greet(session: Session | null): string {
  return session?.user ? `${session.user.name ?? session.user.email} (${session.accessToken ?? "no token"})` : "Sign in"
}
export async function tokenOf(req: Request): Promise<number | undefined> {
  return (await getToken({ req, secret: "s" }))?.expires_at
}
export const adapter: Pick<Adapter, "getUser" | "linkAccount"> = {
  getUser: async (id) => ({ id, email: "a@example.com", emailVerified: null }),
  linkAccount: async (row) => void row.access_token,
}

// ---------------------------------------------------------------------------------------------------------
// Key-by-key guard. `Gaps<AuthJs, Gatehouse>` names each field of the Auth.js type that Gatehouse's lacks (and whose
// index signature does not make it `any`) or types as something Auth.js code would not accept; it must be `never`.
type Known<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] }
type IsAny<T> = 0 extends 1 & T ? true : false
type Gaps<AuthJs, Ours> = {
  [K in keyof Known<AuthJs>]-?: K extends keyof Known<Ours>
    ? [Known<Ours>[K]] extends [Known<AuthJs>[K]]
      ? never
      : `${K & string}: typed wider`
    : string extends keyof Ours
      ? IsAny<Ours[string]> extends true
        ? never
        : `${K & string}: missing`
      : `${K & string}: missing`
}[keyof Known<AuthJs>]
function noGaps<T extends never>(): void {}
type Param<F> = F extends (...args: infer P) => unknown ? P[0] : never
type CallbacksOf<C> = NonNullable<C extends { callbacks?: infer X } ? X : never>
type EventsOf<C> = NonNullable<C extends { events?: infer X } ? X : never>
type Cb<C, K extends string> = Param<NonNullable<CallbacksOf<C>[K & keyof CallbacksOf<C>]>>
type Ev<C, K extends string> = Param<NonNullable<EventsOf<C>[K & keyof EventsOf<C>]>>

noGaps<Gaps<A.Session, G.Session>>()
noGaps<Gaps<A.DefaultSession, G.DefaultSession>>()
noGaps<Gaps<A.User, G.User>>()
noGaps<Gaps<A.DefaultUser, G.DefaultUser>>()
noGaps<Gaps<A.Account, G.Account>>()
noGaps<Gaps<A.Profile, G.Profile>>()
noGaps<Gaps<A.TokenSet, G.TokenSet>>()
noGaps<Gaps<AJ.JWT, GJ.JWT>>()
noGaps<Gaps<AJ.DefaultJWT, G.DefaultJWT>>()
noGaps<Gaps<AA.AdapterUser, GA.AdapterUser>>()
noGaps<Gaps<AA.AdapterAccount, GA.AdapterAccount>>()
noGaps<Gaps<AA.AdapterSession, GA.AdapterSession>>()
noGaps<Gaps<AA.AdapterAuthenticator, GA.AdapterAuthenticator>>()
noGaps<Gaps<AA.VerificationToken, GA.VerificationToken>>()
noGaps<Gaps<Cb<AuthJsConfig, "redirect">, Cb<AuthConfig, "redirect">>>()
noGaps<Gaps<Cb<AuthJsConfig, "session">, Cb<AuthConfig, "session">>>()
noGaps<Gaps<Cb<AuthJsConfig, "jwt">, Cb<AuthConfig, "jwt">>>()
// signIn: `credentials` holds Gatehouse's CredentialInput (the same fields; preact's signal types stay Auth.js's own).
noGaps<Gaps<Omit<Cb<AuthJsConfig, "signIn">, "credentials">, Cb<AuthConfig, "signIn">>>()
noGaps<Gaps<Ev<AuthJsConfig, "signIn">, Ev<AuthConfig, "signIn">>>()
noGaps<Gaps<Ev<AuthJsConfig, "createUser">, Ev<AuthConfig, "createUser">>>()
noGaps<Gaps<Ev<AuthJsConfig, "updateUser">, Ev<AuthConfig, "updateUser">>>()
noGaps<Gaps<Ev<AuthJsConfig, "linkAccount">, Ev<AuthConfig, "linkAccount">>>()
noGaps<Gaps<Ev<AuthJsConfig, "session">, Ev<AuthConfig, "session">>>()
noGaps<Gaps<Param<ACr.CredentialsConfig["authorize"]>, Param<GCr.CredentialsConfig["authorize"]>>>()
noGaps<Gaps<Param<AE.EmailConfig["sendVerificationRequest"]>, Param<GE.EmailConfig["sendVerificationRequest"]>>>()

// Provider profiles apps read most. Kept where Auth.js's type is wrong about what the provider sends (docs/differences.md):
// JWT times are numbers (Auth.js: Date or string), `aud` may be an array, `amr` is an array, Okta's `email_verified` is a
// boolean, Auth0's `updated_at` and LinkedIn's `locale` are what those APIs send, Apple's `email_verified` may be "false".
noGaps<Gaps<AGitHub, GitHubProfile>>()
noGaps<Gaps<AGoogle, GoogleProfile>>()
noGaps<Gaps<AKeycloak, KeycloakProfile>>()
noGaps<Gaps<ADiscord, DiscordProfile>>()
noGaps<Gaps<AFacebook, FacebookProfile>>()
noGaps<Gaps<ASpotify, SpotifyProfile>>()
noGaps<Gaps<AGitLab, GitLabProfile>>()
noGaps<Gaps<ASlack, SlackProfile>>()
noGaps<Gaps<ATwitch, TwitchProfile>>()
noGaps<Gaps<Omit<AApple, "email_verified">, AppleProfile>>()
noGaps<Gaps<Omit<AAuth0, "updated_at">, Auth0Profile>>()
noGaps<Gaps<Omit<ALinkedIn, "locale">, LinkedInProfile>>()
noGaps<Gaps<Omit<AEntra, "iat" | "exp" | "nbf">, MicrosoftEntraIDProfile>>()
noGaps<Gaps<Omit<AOkta, "iat" | "exp" | "auth_time" | "ver" | "amr" | "email_verified">, OktaProfile>>()
noGaps<Gaps<Omit<AZitadel, "aud" | "amr">, ZitadelProfile>>()

// The names @auth/core's modules export are there too.
export type Names = [
  G.Awaited<Promise<1>>,
  G.SemverString,
  G.ErrorPageParam,
  G.SignInPageErrorParam,
  G.PublicProvider,
  G.Authenticator,
  G.WebAuthnOptionsResponseBody,
  GA.AdapterAccountType,
]
export const iso: boolean = isDate("2024-05-01T10:00:00.000Z")
