// WebAuthn flow-test kit: a passkey config on any adapter, and the browser's side of the wire (options, then the
// callback POST with CSRF) driven through Auth() with a cookie jar and the software authenticator.
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import type { Adapter } from "../../src/adapters/index.js"
import Passkey from "../../src/providers/passkey.js"
import { CookieJar } from "./cookies.js"
import { createSoftAuthenticator, type SoftAuthenticator } from "./soft-authenticator.js"

export const ORIGIN = "http://localhost:3000"
export const SECRET = "test-secret-that-is-at-least-32-characters-long"

/** A config with the Passkey provider (WebAuthn enabled) on `adapter`. */
export function passkeyConfig(adapter: Adapter, overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    adapter,
    session: { strategy: "jwt" },
    experimental: { enableWebAuthn: true },
    providers: [Passkey()],
    logger: { error() {}, warn() {}, debug() {} },
    ...overrides,
  }
}

/** A passkey authenticator for the test origin (ES256 unless told otherwise). */
export function softPasskey(opts: Partial<Parameters<typeof createSoftAuthenticator>[0]> = {}): SoftAuthenticator {
  return createSoftAuthenticator({ alg: "ES256", rpId: "localhost", origin: ORIGIN, ...opts })
}

export interface OptionsAnswer {
  res: Response
  status: number
  body: { action?: "register" | "authenticate"; options?: any; error?: string }
}

/** GET /auth/webauthn-options/<id> with the jar's cookies; stores the challenge cookie. */
export async function getOptions(
  config: AuthConfig,
  jar: CookieJar,
  query: Record<string, string> = {},
  providerId = "passkey",
): Promise<OptionsAnswer> {
  const qs = new URLSearchParams(query).toString()
  const res = await Auth(
    new Request(`${ORIGIN}/auth/webauthn-options/${providerId}${qs ? `?${qs}` : ""}`, {
      headers: { cookie: jar.header() },
    }),
    config,
  )
  jar.store(res)
  return { res, status: res.status, body: (await res.clone().json()) as OptionsAnswer["body"] }
}

/** The CSRF token for the jar (storing its cookie). */
export async function csrfToken(config: AuthConfig, jar: CookieJar): Promise<string> {
  const res = await Auth(new Request(`${ORIGIN}/auth/csrf`, { headers: { cookie: jar.header() } }), config)
  jar.store(res)
  return ((await res.json()) as { csrfToken: string }).csrfToken
}

/** POST /auth/callback/<id> as the browser code does (form, CSRF token, X-Auth-Return-Redirect); stores cookies. */
export async function postCallback(
  config: AuthConfig,
  jar: CookieJar,
  action: string,
  data: unknown,
  opts: { providerId?: string; callbackUrl?: string; csrf?: string; returnRedirect?: boolean } = {},
): Promise<{ res: Response; url: string }> {
  const body = new URLSearchParams({
    action,
    data: typeof data === "string" ? data : JSON.stringify(data),
    csrfToken: opts.csrf ?? (await csrfToken(config, jar)),
    callbackUrl: opts.callbackUrl ?? `${ORIGIN}/account`,
  })
  const headers: Record<string, string> = {
    cookie: jar.header(),
    "content-type": "application/x-www-form-urlencoded",
    origin: ORIGIN,
  }
  if (opts.returnRedirect !== false) headers["x-auth-return-redirect"] = "1"
  const res = await Auth(
    new Request(`${ORIGIN}/auth/callback/${opts.providerId ?? "passkey"}`, { method: "POST", headers, body }),
    config,
  )
  jar.store(res)
  let url = res.headers.get("location") ?? ""
  if (opts.returnRedirect !== false && res.headers.get("content-type")?.includes("json"))
    url = ((await res.clone().json()) as { url?: string }).url ?? ""
  return { res, url }
}

/** GET /auth/session with the jar. */
export async function session(config: AuthConfig, jar: CookieJar): Promise<Record<string, any> | null> {
  const res = await Auth(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: jar.header() } }), config)
  jar.store(res)
  return (await res.json()) as Record<string, any> | null
}

/** Registers a new passkey user for `email`: options (register) → authenticator → callback. Returns the callback's url. */
export async function registerPasskey(
  config: AuthConfig,
  auth: SoftAuthenticator,
  jar: CookieJar,
  email: string,
): Promise<{ url: string; response: unknown; res: Response }> {
  const { body } = await getOptions(config, jar, { action: "register", email })
  if (body.action !== "register") throw new Error(`expected register options, got ${JSON.stringify(body)}`)
  const response = auth.register(body.options)
  const { res, url } = await postCallback(config, jar, "register", response)
  return { url, response, res }
}

/** Signs in with a passkey: options (authenticate) → assertion → callback. */
export async function signInWithPasskey(
  config: AuthConfig,
  auth: SoftAuthenticator,
  jar: CookieJar,
  query: Record<string, string> = { action: "authenticate" },
): Promise<{ url: string; response: unknown; res: Response }> {
  const { body } = await getOptions(config, jar, query)
  if (body.action !== "authenticate") throw new Error(`expected authenticate options, got ${JSON.stringify(body)}`)
  const response = auth.authenticate(body.options)
  const { res, url } = await postCallback(config, jar, "authenticate", response)
  return { url, response, res }
}

export { CookieJar }
