// Stress harness: the browser's steps over real HTTP (credentials sign-in, sign-out, session read, OAuth start and
// callback against the mock OP of test/support/mock-op.ts), shared by the runs.
import { decode } from "../../src/jwt/index.js"
import type { MockOp } from "../../test/support/mock-op.js"
import { type Client, type HttpResponse, Jar, parseSetCookie } from "./http.js"

export const SESSION_COOKIE = "authjs.session-token"
const PASSWORD = "pw"

export async function csrf(client: Client, jar: Jar): Promise<string> {
  const res = await client.send("GET", "/auth/csrf", { jar })
  if (res.status !== 200) throw new Error(`GET /auth/csrf answered ${res.status}`)
  return (JSON.parse(res.body) as { csrfToken: string }).csrfToken
}

/** Credentials sign-in of user-<n>; the jar ends up holding the session cookie. */
export async function signIn(client: Client, jar: Jar, username: string): Promise<HttpResponse> {
  const csrfToken = await csrf(client, jar)
  return client.send("POST", "/auth/callback/credentials", { jar, form: { csrfToken, username, password: PASSWORD } })
}

export async function signOut(client: Client, jar: Jar): Promise<HttpResponse> {
  const csrfToken = await csrf(client, jar)
  return client.send("POST", "/auth/signout", { jar, form: { csrfToken } })
}

export async function session(
  client: Client,
  jar: Jar,
): Promise<{ res: HttpResponse; user: { email?: string } | undefined }> {
  const res = await client.send("GET", "/auth/session", { jar })
  let user: { email?: string } | undefined
  if (res.status === 200) {
    const body = JSON.parse(res.body) as { user?: { email?: string } } | null
    user = body?.user
  }
  return { res, user }
}

/** The session cookie a response sets: "set", "cleared" or undefined when it does not touch it. */
export function sessionCookieOf(res: HttpResponse): { kind: "set"; value: string } | { kind: "cleared" } | undefined {
  let out: { kind: "set"; value: string } | { kind: "cleared" } | undefined
  for (const raw of res.setCookies) {
    const c = parseSetCookie(raw)
    if (c.name !== SESSION_COOKIE) continue
    out =
      c.value === "" || (c.maxAge !== undefined && c.maxAge <= 0)
        ? { kind: "cleared" }
        : { kind: "set", value: c.value }
  }
  return out
}

/** Whether a session JWE opens under exactly these secrets (null when it does not). */
export async function decodeSession(token: string, secrets: string[]): Promise<Record<string, unknown> | null> {
  try {
    return (await decode({
      token,
      secret: secrets.length === 1 ? (secrets[0] as string) : secrets,
      salt: SESSION_COOKIE,
    })) as Record<string, unknown> | null
  } catch {
    return null
  }
}

/**
 * An OAuth sign-in up to the IdP's redirect back: csrf, POST /auth/signin/mock, then the OP's authorization step for
 * `subject` (the OP mints the code as its authorize endpoint would, bound to the PKCE challenge and nonce).
 * Returns the callback path and query the browser would GET.
 */
export async function oauthStart(client: Client, jar: Jar, op: MockOp, subject: string): Promise<string> {
  const csrfToken = await csrf(client, jar)
  const res = await client.send("POST", "/auth/signin/mock", { jar, form: { csrfToken } })
  if (res.status !== 302 || !res.location) throw new Error(`POST /auth/signin/mock answered ${res.status}`)
  const q = new URL(res.location).searchParams
  const redirectUri = q.get("redirect_uri") ?? ""
  const code = op.issueCode({
    redirectUri,
    ...(q.get("code_challenge")
      ? {
          codeChallenge: q.get("code_challenge") as string,
          codeChallengeMethod: q.get("code_challenge_method") ?? "S256",
        }
      : {}),
    ...(q.get("nonce") ? { nonce: q.get("nonce") as string } : {}),
    scope: q.get("scope") ?? "openid",
    sub: subject,
  })
  const back = new URL(redirectUri)
  back.searchParams.set("code", code)
  if (q.has("state")) back.searchParams.set("state", q.get("state") as string)
  back.searchParams.set("iss", op.issuer)
  return back.pathname + back.search
}

export const oauthFinish = (client: Client, jar: Jar, callbackPath: string): Promise<HttpResponse> =>
  client.send("GET", callbackPath, { jar })

/** A whole OAuth sign-in in a fresh browser. */
export async function oauthSignIn(
  client: Client,
  op: MockOp,
  subject: string,
  jar = new Jar(),
): Promise<{ jar: Jar; res: HttpResponse }> {
  const path = await oauthStart(client, jar, op, subject)
  return { jar, res: await oauthFinish(client, jar, path) }
}

/** A successful sign-in lands on the app (not the error or sign-in page) with a session cookie. */
export function signedIn(res: HttpResponse, origin: string): boolean {
  return (
    res.status === 302 &&
    res.location !== undefined &&
    !res.location.startsWith(`${origin}/auth/`) &&
    sessionCookieOf(res)?.kind === "set"
  )
}

/**
 * An e-mail sign-in up to the mailed link: csrf, POST /auth/signin/email, then the link the app's provider "sent"
 * (taken with `takeMail`). Returns the link's path and query, or undefined when no mail went out.
 */
export async function emailLink(
  client: Client,
  jar: Jar,
  takeMail: (email: string) => Promise<string | null>,
  address: string,
): Promise<{ res: HttpResponse; path: string | undefined }> {
  const csrfToken = await csrf(client, jar)
  const res = await client.send("POST", "/auth/signin/email", { jar, form: { csrfToken, email: address } })
  const link = res.status === 302 ? await takeMail(address) : null
  if (!link) return { res, path: undefined }
  const url = new URL(link)
  return { res, path: url.pathname + url.search }
}
