// Consumer code type-checked against the installed tarball by test/pack.test.ts (moduleResolution bundler and nodenext):
// the README's usage, written as an app would, through the package name only.
import { createServer } from "node:http"
import { Auth, customFetch, raw, type AuthConfig, type Session } from "gatehouse"
import { AuthError, CredentialsSignin, type AnyAuthError } from "gatehouse/errors"
import { decode, encode, getToken, type JWT } from "gatehouse/jwt"
import type { Adapter, AdapterUser } from "gatehouse/adapters"
import { MemoryAdapter } from "gatehouse/adapters/memory"
import type { OAuthConfig, OIDCConfig, Provider, ProfileCallback } from "gatehouse/providers"
import Credentials from "gatehouse/providers/credentials"
import GitHub, { type GitHubProfile } from "gatehouse/providers/github"
import type { TiktokProfile } from "gatehouse/providers/tiktok"
import { createAuthHandler, sendWebResponse, toWebRequest } from "gatehouse/node"

const adapter: Adapter = MemoryAdapter()
const toUser: ProfileCallback<GitHubProfile> = (profile) => ({
  id: String(profile.id),
  name: profile.name ?? profile.login,
})
const corp: OIDCConfig<{ sub: string; email: string }> = {
  id: "corp",
  name: "Corp",
  type: "oidc",
  issuer: "https://idp.example",
  clientId: "id",
  clientSecret: "secret",
  profile: (profile) => ({ id: profile.sub, email: profile.email }),
  [customFetch]: fetch,
}
const providers: Provider[] = [
  GitHub({ clientId: "id", clientSecret: "secret", profile: toUser }),
  corp satisfies OAuthConfig<{ sub: string; email: string }>,
  Credentials({
    credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
    authorize: async ({ email }) => (email === "a@example.com" ? { id: "1", email } : null),
  }),
]

export const config: AuthConfig = {
  secret: process.env.AUTH_SECRET,
  trustHost: true,
  adapter,
  providers,
  session: { strategy: "jwt", maxAge: 3600 },
  callbacks: {
    jwt: ({ token, user }) => (user ? { ...token, uid: user.id } : token),
    session: ({ session, token }): Session => ({
      ...session,
      user: { ...session.user, name: String(token.uid ?? "") },
    }),
  },
}

export async function handle(request: Request): Promise<Response> {
  const response: Response = await Auth(request, config)
  const internal = await Auth(request, { ...config, raw })
  void internal.status
  return response
}

export async function readToken(request: Request): Promise<string | undefined> {
  const token: JWT | null = await getToken({ req: request, secret: "s".repeat(32) })
  const sealed: string = await encode({ token: { sub: "1" }, secret: "s".repeat(32), salt: "authjs.session-token" })
  const opened: JWT | null = await decode({ token: sealed, secret: "s".repeat(32), salt: "authjs.session-token" })
  return token?.sub ?? opened?.sub
}

export function describeError(error: unknown): string {
  if (!(error instanceof AuthError)) return "unknown"
  const known = error as AnyAuthError
  switch (known.type) {
    case "CredentialsSignin":
      return known.code
    case "JWTSessionError":
      return "bad session token"
    default:
      return known.type
  }
}

export class WrongPassword extends CredentialsSignin {
  override code = "wrong_password"
}

export const user: AdapterUser = { id: "1", email: "a@example.com", emailVerified: null }
export const tiktokName = (profile: TiktokProfile): string => profile.data.user.display_name

export const server = createServer(async (req, res) => {
  if (req.url?.startsWith("/auth/")) return sendWebResponse(await Auth(toWebRequest(req), config), res)
  res.end("app")
})
export const handler = createAuthHandler(config)
