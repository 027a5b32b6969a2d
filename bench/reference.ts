// What bench/run.ts and bench/callgrind.ts share: the requests, the real sign-in flow, and the reference handlers
// (C and C5, the trivial handlers; F and F5, the node:crypto floor) that the targets are read against. Nothing here
// imports Gatehouse: the references are written independently of src/.
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  randomUUID,
  timingSafeEqual,
} from "node:crypto"

// ---------------------------------------------------------------- the requests both libraries get
const ORIGIN = "http://localhost:3000"
export const SECRET = "x".repeat(32) // Gatehouse requires >= 32 characters
export const USER = { id: "user-1", name: "Bench User", email: "bench@example.com" }
export const MAX_AGE = 30 * 24 * 60 * 60
export const SESSION_COOKIE = "authjs.session-token" // http origin: no __Secure- prefix

/** A library (or reference) under test: a web Request in, a web Response out. */
export type Handler = (request: Request) => Promise<Response>

export function check(ok: unknown, what: string): asserts ok {
  if (!ok) throw new Error(`bench check failed: ${what}`)
}
export const get = (path: string, cookie?: string) =>
  new Request(`${ORIGIN}${path}`, cookie ? { headers: { cookie } } : undefined)
const cookiePairs = (res: Response) => res.headers.getSetCookie().map((c) => c.split(";", 1)[0] as string)

/** The real browser flow: GET /auth/csrf, then the sign-in POST. Returns a request factory for that POST and the session cookie. */
export async function signInFlow(handle: Handler, extraHeaders: Record<string, string> = {}) {
  const csrf = await handle(get("/auth/csrf"))
  check(csrf.status === 200, "GET /auth/csrf")
  const csrfCookies = cookiePairs(csrf).join("; ") // csrf-token (+ callback-url for @auth/core)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const body = new URLSearchParams({ csrfToken, email: USER.email, password: "pw", callbackUrl: ORIGIN }).toString()
  const signInRequest = () =>
    new Request(`${ORIGIN}/auth/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookies, ...extraHeaders },
      body,
    })
  const res = await handle(signInRequest())
  check(res.status === 302, `sign-in status ${res.status}`)
  const sessionCookie = cookiePairs(res).find((p) => p.startsWith(`${SESSION_COOKIE}=`))
  const token = sessionCookie?.slice(SESSION_COOKIE.length + 1)
  check(sessionCookie && token?.split(".").length === 5, "sign-in set no JWE session cookie")
  const failedSignIn = (email: string) =>
    new Request(`${ORIGIN}/auth/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookies },
      body: new URLSearchParams({ csrfToken, email, password: "wrong", callbackUrl: ORIGIN }).toString(),
    })
  return { signInRequest, failedSignIn, sessionCookie, token, csrfToken }
}

/** The CSRF cookie hash both libraries compute: SHA-256(token + secret), hex. */
export const csrfHash = (token: string) => createHash("sha256").update(`${token}${SECRET}`).digest("hex")

// ---------------------------------------------------------------- (F) node:crypto floor, written independently of src/
// Same JWE as both libraries: "dir" + A256CBC-HS512, key = HKDF-SHA256(secret, salt = cookie name,
// info = "Auth.js Generated Encryption Key (<salt>)", 64 bytes), kid = RFC 7638 SHA-512 thumbprint.
// The key, kid and protected header are computed once, as a library with a key cache would.
export function nodeCryptoJwe(secret: string, salt = SESSION_COOKIE) {
  const key = Buffer.from(hkdfSync("sha256", secret, salt, `Auth.js Generated Encryption Key (${salt})`, 64))
  const macKey = key.subarray(0, 32)
  const encKey = key.subarray(32, 64)
  const kid = createHash("sha512")
    .update(`{"k":"${key.toString("base64url")}","kty":"oct"}`)
    .digest("base64url")
  const header = Buffer.from(JSON.stringify({ alg: "dir", enc: "A256CBC-HS512", kid })).toString("base64url")
  const tagOf = (h: string, iv: Buffer, ct: Buffer) => {
    const aad = Buffer.from(h, "ascii")
    const al = Buffer.alloc(8)
    al.writeBigUInt64BE(BigInt(aad.length * 8))
    return createHmac("sha512", macKey).update(aad).update(iv).update(ct).update(al).digest().subarray(0, 32)
  }
  return {
    decrypt(token: string): Record<string, unknown> {
      const [h = "", ek, ivB = "", ctB = "", tagB] = token.split(".")
      if (ek !== "" || tagB === undefined) throw new Error("not a dir JWE")
      if (h !== header) {
        // byte-different header: check it the slow way
        const hdr = JSON.parse(Buffer.from(h, "base64url").toString()) as Record<string, unknown>
        if (hdr.alg !== "dir" || hdr.enc !== "A256CBC-HS512" || hdr.kid !== kid) throw new Error("bad header")
      }
      const iv = Buffer.from(ivB, "base64url")
      const ct = Buffer.from(ctB, "base64url")
      const tag = Buffer.from(tagB, "base64url")
      if (iv.length !== 16 || tag.length !== 32 || !timingSafeEqual(tag, tagOf(h, iv, ct))) throw new Error("bad tag")
      const d = createDecipheriv("aes-256-cbc", encKey, iv)
      const claims = JSON.parse(Buffer.concat([d.update(ct), d.final()]).toString("utf8")) as Record<string, unknown>
      if (typeof claims.exp !== "number" || claims.exp <= Date.now() / 1000 - 15) throw new Error("expired")
      return claims
    },
    encrypt(claims: Record<string, unknown>): string {
      const now = Math.floor(Date.now() / 1000)
      const iv = randomBytes(16)
      const c = createCipheriv("aes-256-cbc", encKey, iv)
      const ct = Buffer.concat([
        c.update(JSON.stringify({ ...claims, iat: now, exp: now + MAX_AGE, jti: randomUUID() }), "utf8"),
        c.final(),
      ])
      return `${header}..${iv.toString("base64url")}.${ct.toString("base64url")}.${tagOf(header, iv, ct).toString("base64url")}`
    },
  }
}

/** The headers Auth.js (and Gatehouse) send with a session answer, for the references to send too. */
const NO_STORE_JSON: [string, string][] = [
  ["Content-Type", "application/json"],
  ["Cache-Control", "private, no-cache, no-store"],
  ["Expires", "0"],
  ["Pragma", "no-cache"],
]

/** The session cookie's value, found with indexOf: the least a handler can do to read it (the references' way). */
function sessionCookieValue(request: Request): string {
  const cookie = request.headers.get("cookie") ?? ""
  const start = cookie.indexOf(`${SESSION_COOKIE}=`) + SESSION_COOKIE.length + 1
  const end = cookie.indexOf(";", start)
  return cookie.slice(start, end === -1 ? undefined : end)
}

// ---------------------------------------------------------------- (C) ceiling: same Request/Response work, no auth
// Reads the cookie header, returns the /session JSON body, the same no-store headers and one Set-Cookie.
export const ceilingHandler: Handler = async (request) => {
  const token = sessionCookieValue(request)
  const expires = new Date(Date.now() + MAX_AGE * 1000)
  const body = JSON.stringify({ user: { name: USER.name, email: USER.email }, expires: expires.toISOString() })
  return new Response(body, {
    status: 200,
    headers: [
      ...NO_STORE_JSON,
      [
        "Set-Cookie",
        `${SESSION_COOKIE}=${token}; Max-Age=${MAX_AGE}; Path=/; Expires=${expires.toUTCString()}; HttpOnly; SameSite=Lax`,
      ],
    ],
  })
}

// ---------------------------------------------------------------- (CQ) database ceiling: the query, no auth
/** The one statement Gatehouse's getSessionAndUser runs (gatehouse/adapters/postgres), written out for the references. */
export const SESSION_SQL = `SELECT u.*, s.id AS "gatehouse_session_id", s.expires AS "gatehouse_session_expires"
  FROM sessions s JOIN users u ON u.id = s."userId" WHERE s."sessionToken" = $1`

/** A row of {@link SESSION_SQL} as a driver returns it. */
export interface SessionRow {
  name: string | null
  email: string
  image: string | null
  gatehouse_session_expires: Date
}

/**
 * (CQ) The database read's ceiling: C's Request/Response work around the one query. It takes the session cookie's
 * value, runs `lookup` (SESSION_SQL on the caller's pool), and answers the /session JSON with the same no-store
 * headers, no Set-Cookie (a database read re-sets the cookie only when the session is extended). No auth work: no
 * routing, no config, no expiry check, no adapter. The least any handler that reads a database session does.
 */
export function queryCeilingHandler(lookup: (token: string) => Promise<SessionRow | undefined>): Handler {
  return async (request) => {
    const row = await lookup(sessionCookieValue(request))
    const body = JSON.stringify(
      row
        ? {
            user: { name: row.name, email: row.email, image: row.image },
            expires: row.gatehouse_session_expires.toISOString(),
          }
        : null,
    )
    return new Response(body, { status: 200, headers: NO_STORE_JSON })
  }
}

// (C5) sign-in ceiling handler: the same sign-in Request; reads the form body and the cookie header and answers 302
// with a Location and one session Set-Cookie, doing no auth work. The sign-in ceiling is C5 + F5 (one JWE encrypt +
// one CSRF hash with node:crypto).
export const signInCeilingHandler: Handler = async (request) => {
  const form = new URLSearchParams(await request.text())
  const cookie = request.headers.get("cookie") ?? ""
  check(form.get("csrfToken") && cookie.length > 0, "ceiling sign-in request")
  const expires = new Date(Date.now() + MAX_AGE * 1000)
  return new Response(null, {
    status: 302,
    headers: [
      ["Location", form.get("callbackUrl") ?? ORIGIN],
      [
        "Set-Cookie",
        `${SESSION_COOKIE}=${"e".repeat(400)}; Max-Age=${MAX_AGE}; Path=/; Expires=${expires.toUTCString()}; HttpOnly; SameSite=Lax`,
      ],
    ],
  })
}

/** One op: new Request -> handler -> res.text() -> status (and body) check. */
export async function op(handle: Handler, request: Request, status: number, mustContain?: string): Promise<Response> {
  const res = await handle(request)
  const text = await res.text()
  if (res.status !== status || (mustContain !== undefined && !text.includes(mustContain)))
    throw new Error(`bad response ${res.status}: ${text.slice(0, 80)}`)
  return res
}
