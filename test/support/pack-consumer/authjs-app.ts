// Auth.js-shaped app code, type-checked by test/pack.test.ts against the installed tarball and, with every "gatehouse"
// import spelt "@auth/core" instead, against @auth/core 0.41.3 itself: the same code must compile on both, as an app
// moved by swapping its imports does. The shapes come from the Auth.js docs and its official examples.
import { Auth, type AuthConfig } from "gatehouse"
import type { Account, DefaultSession, Profile, Session, User } from "gatehouse/types"
import { getToken, type JWT } from "gatehouse/jwt"
import {
  isDate,
  type Adapter,
  type AdapterAccount,
  type AdapterSession,
  type AdapterUser,
  type VerificationToken,
} from "gatehouse/adapters"
import { AuthError, CredentialsSignin } from "gatehouse/errors"
import type { OAuthConfig, OAuthUserConfig, OIDCConfig, Provider } from "gatehouse/providers"
import Credentials from "gatehouse/providers/credentials"
import Apple from "gatehouse/providers/apple"
import Discord from "gatehouse/providers/discord"
import Facebook from "gatehouse/providers/facebook"
import GitHub, { type GitHubProfile } from "gatehouse/providers/github"
import Google from "gatehouse/providers/google"
import Keycloak from "gatehouse/providers/keycloak"
import MicrosoftEntraID from "gatehouse/providers/microsoft-entra-id"
import Passkey from "gatehouse/providers/passkey"
import Resend from "gatehouse/providers/resend"
import Spotify from "gatehouse/providers/spotify"
import Twitter from "gatehouse/providers/twitter"

// Module augmentation, each interface in the module Auth.js declares it in.
declare module "gatehouse/types" {
  interface Session {
    accessToken?: string
    error?: "RefreshAccessTokenError"
    user: { id: string; role?: string } & DefaultSession["user"]
  }
  interface User {
    role?: string
    username?: string | null
  }
}
declare module "gatehouse/jwt" {
  interface JWT {
    accessToken?: string
    access_token?: string
    expires_at?: number
    refresh_token?: string
    role?: string
    error?: "RefreshAccessTokenError"
  }
}

declare function findUser(
  email: string,
  passwordHash: string,
): Promise<{ id: string; name: string; email: string } | null>
declare function hash(password: string): string

// A custom provider, as the Auth.js docs write one.
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
    profile(profile) {
      return { id: profile.id, name: profile.login, email: profile.email, image: profile.avatar }
    },
    style: { logo: "/acme.svg", bg: "#000", text: "#fff" },
    options,
  }
}
export const corp: OIDCConfig<Profile> = {
  id: "corp",
  name: "Corp",
  type: "oidc",
  issuer: "https://idp.example",
  clientId: "id",
  clientSecret: "secret",
  profile(profile, tokens) {
    return {
      id: profile.sub ?? undefined,
      name: profile.name ?? profile.preferred_username,
      email: profile.email,
      image: profile.picture,
      hint: tokens.id_token?.length,
    }
  },
}

const providers: Provider[] = [
  GitHub({
    profile(profile: GitHubProfile) {
      return {
        id: profile.id.toString(),
        name: profile.name ?? profile.login,
        email: profile.email,
        image: profile.avatar_url,
        username: profile.login,
        role: profile.site_admin ? "admin" : "user",
      }
    },
  }),
  Google({
    authorization: { params: { prompt: "consent", access_type: "offline", response_type: "code" } },
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name,
        email: profile.email,
        image: profile.picture,
        role: profile.role ?? "user",
      }
    },
  }),
  Keycloak({
    clientId: process.env.AUTH_KEYCLOAK_ID,
    clientSecret: process.env.AUTH_KEYCLOAK_SECRET,
    issuer: process.env.AUTH_KEYCLOAK_ISSUER,
  }),
  MicrosoftEntraID({
    profile: (profile) => ({
      id: profile.oid,
      name: profile.name,
      email: profile.email ?? profile.preferred_username.toLowerCase(),
      role: profile.roles?.[0],
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
      email: profile.verified ? profile.email : null,
      image: profile.image_url,
    }),
  }),
  Apple({
    profile: (profile) => ({
      id: profile.sub,
      email: profile.email,
      name: profile.user ? `${profile.user.name.firstName} ${profile.user.name.lastName}` : profile.email,
    }),
  }),
  Twitter,
  Credentials({
    credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
    authorize: async (credentials) => {
      const user = await findUser(credentials.email as string, hash(credentials.password as string))
      if (!user) throw new CredentialsSignin("Invalid credentials.")
      return user
    },
  }),
  Credentials({
    id: "remote",
    credentials: {
      username: { label: "Username", type: "text", placeholder: "jsmith" },
      password: { label: "Password", type: "password" },
    },
    async authorize(credentials, request) {
      if (!credentials?.username) return null
      const res = await fetch("https://api.example/login", {
        method: "POST",
        body: JSON.stringify(credentials),
        headers: { "content-type": "application/json", cookie: request.headers.get("cookie") ?? "" },
      })
      const user = await res.json()
      return res.ok && user ? user : null
    },
  }),
  Resend({ from: "auth@example.com" }),
  Passkey,
  Acme({ clientId: "acme-id", clientSecret: "acme-secret" }),
  corp,
]

export const config = {
  providers,
  session: { strategy: "jwt" },
  callbacks: {
    async signIn({ user, account, profile, email, credentials }) {
      if (email?.verificationRequest || credentials) return true
      if (account?.provider === "google")
        return !!profile?.email_verified && (profile.email?.endsWith("@example.com") ?? false)
      if (account?.provider === "github") return (profile?.login as string) !== "blocked"
      const verified: boolean = profile?.email_verified ?? false
      return verified || user.email ? true : "/unverified"
    },
    async redirect({ url, baseUrl }) {
      if (url.startsWith("/")) return `${baseUrl}${url}`
      if (new URL(url).origin === baseUrl) return url
      return baseUrl
    },
    async jwt({ token, user, account, profile, trigger, isNewUser, session }) {
      // The official Next.js example's line (TS18046 "'session' is of type 'unknown'" before).
      if (trigger === "update") token.name = session.user.name
      if (user) token.role = user.role
      if (isNewUser) token.isNew = true
      if (profile) {
        token.login = profile.login
        token.picture = profile.picture
      }
      if (account) {
        token.accessToken = account.access_token
        const expiresIn: number = account.expires_in ?? 3600
        return {
          ...token,
          access_token: account.access_token!,
          expires_at: account.expires_at ?? Math.floor(Date.now() / 1000) + expiresIn,
          refresh_token: account.refresh_token,
        }
      }
      if (token.expires_at && Date.now() < token.expires_at * 1000) return token
      if (!token.refresh_token) throw new TypeError("Missing refresh_token")
      try {
        const response = await fetch("https://oauth2.googleapis.com/token", {
          method: "POST",
          body: new URLSearchParams({
            client_id: process.env.AUTH_GOOGLE_ID!,
            client_secret: process.env.AUTH_GOOGLE_SECRET!,
            grant_type: "refresh_token",
            refresh_token: token.refresh_token,
          }),
        })
        const tokensOrError = await response.json()
        if (!response.ok) throw tokensOrError
        const refreshed = tokensOrError as { access_token: string; expires_in: number; refresh_token?: string }
        token.access_token = refreshed.access_token
        token.expires_at = Math.floor(Date.now() / 1000 + refreshed.expires_in)
        if (refreshed.refresh_token) token.refresh_token = refreshed.refresh_token
        return token
      } catch {
        token.error = "RefreshAccessTokenError"
        return token
      }
    },
    async session({ session, token, user, newSession, trigger }) {
      session.user.id = token.sub as string
      session.user.role = token.role
      session.accessToken = token.accessToken
      session.error = token.error
      if (user) session.user.id = user.id
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
    async linkAccount({ user, account, profile }) {
      void [user.id, account.providerAccountId, profile.email]
    },
    async session({ session, token }) {
      void [session.user.id, token.sub]
    },
  },
  pages: { signIn: "/login" },
  trustHost: true,
} satisfies AuthConfig

export const typed: AuthConfig = config
export const handle = (request: Request): Promise<Response> => Auth(request, config)

// The database strategy's session callback.
export const databaseCallbacks: AuthConfig["callbacks"] = {
  session({ session, user }) {
    session.user.id = user.id
    return session
  },
}

// Reading sessions and tokens in app code.
export function greet(session: Session | null): string {
  if (!session?.user) return "Sign in"
  return `${session.user.name ?? session.user.email ?? session.user.id} ${session.user.role ?? ""} until ${session.expires}`
}
export async function apiToken(req: Request): Promise<string | undefined> {
  const token = await getToken({ req, secret: process.env.AUTH_SECRET })
  return token?.access_token ?? token?.sub
}
export function describe(error: unknown): string {
  return error instanceof AuthError ? error.type : String(error)
}

// A hand-written adapter over maps.
export function MapAdapter(db: {
  users: Map<string, AdapterUser>
  accounts: AdapterAccount[]
  sessions: Map<string, AdapterSession>
  tokens: VerificationToken[]
}): Adapter {
  return {
    async createUser(user) {
      const created = { ...user, id: crypto.randomUUID() }
      db.users.set(created.id, created)
      return created
    },
    async getUser(id) {
      return db.users.get(id) ?? null
    },
    async getUserByEmail(email) {
      return [...db.users.values()].find((u) => u.email === email) ?? null
    },
    async getUserByAccount({ provider, providerAccountId }) {
      const row = db.accounts.find((a) => a.provider === provider && a.providerAccountId === providerAccountId)
      return row ? (db.users.get(row.userId) ?? null) : null
    },
    async updateUser(user) {
      const updated = { ...db.users.get(user.id)!, ...user }
      db.users.set(updated.id, updated)
      return updated
    },
    async linkAccount(account) {
      db.accounts.push(account)
    },
    async createSession(session) {
      db.sessions.set(session.sessionToken, session)
      return session
    },
    async getSessionAndUser(sessionToken) {
      const session = db.sessions.get(sessionToken)
      const user = session && db.users.get(session.userId)
      return session && user
        ? {
            session: { ...session, expires: isDate(session.expires) ? new Date(session.expires) : session.expires },
            user,
          }
        : null
    },
    async deleteSession(sessionToken) {
      db.sessions.delete(sessionToken)
    },
    async createVerificationToken(token) {
      db.tokens.push(token)
      return token
    },
    async useVerificationToken({ identifier, token }) {
      const at = db.tokens.findIndex((t) => t.identifier === identifier && t.token === token)
      return at === -1 ? null : (db.tokens.splice(at, 1)[0] ?? null)
    },
  }
}

export const account: Account = {
  provider: "github",
  type: "oauth",
  providerAccountId: "1",
  access_token: "t",
  expires_in: 3600,
  token_type: "bearer",
}
export const user: User = { id: "1", name: null, email: "a@example.com", image: null, role: "admin" }
export const profile: Profile = {
  sub: "1",
  name: "A",
  email: "a@example.com",
  email_verified: true,
  picture: "https://img.example/a.png",
  locale: "en",
}
export const jwt: JWT = { sub: "1", name: "A", picture: null, accessToken: "t" }
