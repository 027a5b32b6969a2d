// Session cookies minted by next-auth 4.24.15 itself (the dev dependency, through test/support/next-auth-v4.ts): a
// credentials sign-in and an e-mail sign-in through its core AuthHandler, called in-process as its Next.js handlers
// call it, and tokens from its next-auth/jwt encode. What a browser holds after them is what an app moving off next-auth
// v4 finds in its users' browsers.
import type { Adapter } from "../../src/index.js"
import { nextAuthV4Handler, nextAuthV4Jwt, nextAuthV4Module, type V4ResponseInternal } from "../support/next-auth-v4.js"

export const V4_SECRET = "the-secret-the-next-auth-v4-app-used-for-years"
export const V4_SESSION = "next-auth.session-token"

const quiet = { error() {}, warn() {}, debug() {} }

/** A browser's view of the cookies next-auth 4 set: name → value, deletions applied. */
export type CookieMap = Record<string, string>

function apply(jar: CookieMap, res: V4ResponseInternal): void {
  for (const { name, value, options } of res.cookies ?? []) {
    if (value === "" || options.maxAge === 0) delete jar[name]
    else jar[name] = value
  }
}

/** A Cookie header from a cookie map, values percent-encoded as a browser sends what Set-Cookie gave it. */
export function cookieHeader(...maps: CookieMap[]): string {
  return maps
    .flatMap((m) => Object.entries(m))
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join("; ")
}

/** The session cookie names in a map (bare and chunks). */
export function v4SessionNames(jar: CookieMap, name = V4_SESSION): string[] {
  return Object.keys(jar).filter((n) => n === name || n.startsWith(`${name}.`))
}

const credentialsProvider = () =>
  nextAuthV4Module<(options: Record<string, unknown>) => Record<string, unknown>>("providers/credentials")({
    credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
    authorize: async (c: Record<string, string>) =>
      c.username === "alice" && c.password === "password"
        ? { id: "user-1", name: "Alice", email: "alice@example.com", role: "admin" }
        : null,
  })

/**
 * A credentials sign-in as alice on a next-auth 4 app (JWT sessions, http://localhost:3000): its `jwt` callback
 * stores `role` (and `padding`, to make the token long enough to be chunked) in the token. Returns the browser's
 * cookies afterwards: the CSRF cookie and the session cookie or its chunks.
 */
export async function v4CredentialsSignIn(
  options: { secret?: string; padding?: number; secure?: boolean } = {},
): Promise<CookieMap> {
  const handler = nextAuthV4Handler()
  const secret = options.secret ?? V4_SECRET
  const authOptions = {
    secret,
    providers: [credentialsProvider()],
    session: { strategy: "jwt" },
    useSecureCookies: options.secure ?? false,
    logger: quiet,
    callbacks: {
      jwt: ({ token, user }: { token: Record<string, unknown>; user?: { role?: string } }) => {
        if (user) {
          token.role = user.role
          if (options.padding) token.padding = "p".repeat(options.padding)
        }
        return token
      },
    },
  }
  const jar: CookieMap = {}
  const headers = { host: "localhost:3000" }
  const csrf = await handler({ req: { action: "csrf", method: "GET", cookies: jar, headers }, options: authOptions })
  apply(jar, csrf)
  const { csrfToken } = csrf.body as { csrfToken: string }
  const callback = await handler({
    req: {
      action: "callback",
      providerId: "credentials",
      method: "POST",
      body: { csrfToken, username: "alice", password: "password", callbackUrl: "http://localhost:3000/" },
      query: {},
      cookies: { ...jar },
      headers,
    },
    options: authOptions,
  })
  if (callback.redirect !== "http://localhost:3000/")
    throw new Error(`next-auth 4 sign-in failed: ${callback.redirect}`)
  apply(jar, callback)
  return jar
}

/** next-auth 4's own encode (next-auth/jwt): a session token as its session cookie holds it (salt ""). */
export function v4Encode(token: Record<string, unknown>, secret = V4_SECRET, maxAge?: number): Promise<string> {
  return nextAuthV4Jwt().encode({ token, secret, ...(maxAge === undefined ? {} : { maxAge }) })
}

/**
 * An e-mail sign-in on a next-auth 4 app with database sessions on `adapter`: next-auth 4 stores the verification
 * token, "sends" the link (kept here), and on the link's callback creates the user and the session row. Returns the
 * browser's cookies afterwards (the session cookie holds the row's token).
 */
export async function v4EmailSignIn(adapter: Adapter, email: string): Promise<CookieMap> {
  const handler = nextAuthV4Handler()
  let link = ""
  const authOptions = {
    secret: V4_SECRET,
    adapter,
    logger: quiet,
    providers: [
      {
        id: "email",
        type: "email",
        name: "Email",
        server: {},
        from: "app@example.com",
        maxAge: 86_400,
        options: {},
        sendVerificationRequest: async ({ url }: { url: string }) => {
          link = url
        },
      },
    ],
  }
  const jar: CookieMap = {}
  const headers = { host: "localhost:3000" }
  const csrf = await handler({ req: { action: "csrf", method: "GET", cookies: jar, headers }, options: authOptions })
  apply(jar, csrf)
  const { csrfToken } = csrf.body as { csrfToken: string }
  const signin = await handler({
    req: {
      action: "signin",
      providerId: "email",
      method: "POST",
      body: { csrfToken, email, callbackUrl: "http://localhost:3000/" },
      query: {},
      cookies: { ...jar },
      headers,
    },
    options: authOptions,
  })
  apply(jar, signin)
  if (!link) throw new Error(`next-auth 4 sent no link: ${signin.redirect}`)
  const url = new URL(link)
  const callback = await handler({
    req: {
      action: "callback",
      providerId: "email",
      method: "GET",
      query: Object.fromEntries(url.searchParams),
      cookies: { ...jar },
      headers,
    },
    options: authOptions,
  })
  apply(jar, callback)
  if (!jar[V4_SESSION]) throw new Error(`next-auth 4 e-mail sign-in set no session: ${callback.redirect}`)
  return jar
}
