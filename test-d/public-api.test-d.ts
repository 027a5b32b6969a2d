// Type tests (compiled by tsc, never run): the public API accepts Auth.js-style code and rejects misuse.
import { Auth, raw, skipCSRFCheck, type AuthConfig, type ResponseInternal, type Session } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"
import { decode, encode, getToken, type JWT } from "gatehouse/jwt"
import { AuthError, CredentialsSignin, type AnyAuthError } from "gatehouse/errors"

const config: AuthConfig = {
  secret: ["new-secret-new-secret-new-secret-1", "old-secret-old-secret-old-secret-1"],
  trustHost: true,
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize: async (credentials) => (credentials.username === "a" ? { id: "1", name: "A" } : null),
    }),
  ],
  callbacks: {
    signIn: ({ user, account }) => account?.provider === "credentials" && !!user.id,
    jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, data: session } : token),
    session: ({ session, token }) => ({ ...session, userId: token.sub }),
    redirect: ({ url, baseUrl }) => (url.startsWith(baseUrl) ? url : baseUrl),
  },
  events: { signIn: ({ user }) => void user.email },
  session: { maxAge: 3600, updateAge: 600 },
}

// `Auth` returns a Response normally and the internal object with the raw marker.
export async function usage(request: Request): Promise<void> {
  const response: Response = await Auth(request, config)
  const internal: ResponseInternal = await Auth(request, { ...config, raw })
  void response
  void internal.cookies?.[0]?.options.httpOnly
  await Auth(request, { ...config, skipCSRFCheck })
  const token: JWT | null = await decode({ token: "t", secret: "s", salt: "authjs.session-token" })
  const jwe: string = await encode({ token: { sub: "1" }, secret: "s", salt: "authjs.session-token", maxAge: 60 })
  const fromRequest = await getToken({ req: request, secret: "s" })
  const rawToken: string | null = await getToken({ req: request, secret: "s", raw: true })
  // getToken takes @auth/core's `logger` option (a LoggerInstance or the console).
  const logged: JWT | null = await getToken({ req: request, secret: "s", logger: console })
  const withLevels = await getToken({ req: request, secret: "s", logger: { debug: (message: string) => void message } })
  void token, jwe, fromRequest, rawToken, logged, withLevels
  const session: Session = { expires: new Date().toISOString(), user: { name: "A" } }
  void session
}

// Errors narrow on `type`.
export function describe(error: AnyAuthError): string {
  switch (error.type) {
    case "CredentialsSignin":
      return error.code
    default:
      return error.type
  }
}
class InvalidPassword extends CredentialsSignin {
  override code = "invalid_password"
}
void new InvalidPassword()
void (new AuthError() instanceof Error)

// @ts-expect-error providers is required
const missingProviders: AuthConfig = { secret: "x" }
// As in Auth.js, `authorize` is optional (sign-ins fail until it is given), and the provider may go in uncalled.
export const withoutAuthorize: AuthConfig = {
  providers: [Credentials({ credentials: {} }), Credentials({}), Credentials],
}
// @ts-expect-error authorize answers a user or null
Credentials({ authorize: () => "user" })
// @ts-expect-error strategy is "jwt" | "database"
const badStrategy: AuthConfig = { providers: [], session: { strategy: "cookie" } }
// @ts-expect-error raw is a marker symbol, not a boolean
const badRaw: AuthConfig = { providers: [], raw: true }
void missingProviders, badStrategy, badRaw
