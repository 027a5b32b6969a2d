// Shared steps of the e-mail sign-in tests (not a test file): a provider that records what it would send, the
// link request (CSRF + POST /signin/<id>), the click, and a session read.
import { expect } from "vitest"
import { Auth } from "../../src/index.js"
import type { Adapter, AuthConfig } from "../../src/index.js"
import Email from "../../src/providers/email.js"
import type { EmailProviderSendVerificationRequestParams } from "../../src/providers/types.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { CookieJar, ORIGIN, SECRET, fetchCsrf, get, postForm } from "../support/flow-kit.js"
import { faulty, type FaultyAdapter } from "../support/db-harness.js"

export { CookieJar, ORIGIN, SECRET }

/** An Email provider that records each send instead of mailing (the SMTP tests use the real Nodemailer path). */
export function recordingEmail(
  options: { id?: string; fail?: boolean; maxAge?: number; allowDangerousEmailAccountLinking?: boolean } = {},
) {
  const sent: EmailProviderSendVerificationRequestParams[] = []
  const provider = Email({
    ...(options.id ? { id: options.id } : {}),
    ...(options.allowDangerousEmailAccountLinking ? { allowDangerousEmailAccountLinking: true } : {}),
    ...(options.maxAge !== undefined ? { maxAge: options.maxAge } : {}),
    async sendVerificationRequest(params) {
      if (options.fail) throw new Error("mail relay down")
      sent.push(params)
    },
  })
  return { provider, sent }
}

export interface EmailSetup {
  config: AuthConfig
  adapter: FaultyAdapter
  sent: EmailProviderSendVerificationRequestParams[]
  errors: unknown[]
}

/** A config with one recording Email provider and a call-recording adapter (memory unless given). */
export function emailSetup(
  overrides: Partial<AuthConfig> = {},
  inner: Adapter = MemoryAdapter(),
  options: Parameters<typeof recordingEmail>[0] = {},
): EmailSetup {
  const { provider, sent } = recordingEmail(options)
  const adapter = faulty(inner)
  const errors: unknown[] = []
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    // The configured origin mailed links are built from (docs/security.md EM-11): the tests' requests come from ORIGIN.
    trustedOrigins: [ORIGIN],
    basePath: "/auth",
    providers: [provider],
    adapter,
    logger: { error: (e: Error) => void errors.push(e), warn: () => {}, debug: () => {} },
    ...NO_RATE_LIMIT,
    ...overrides,
  }
  return { config, adapter, sent, errors }
}

/** GET /csrf then POST /signin/<id> with `email` (and `callbackUrl`) in `jar`'s browser. */
export async function requestLink(
  config: AuthConfig,
  email: string,
  opts: { jar?: CookieJar; providerId?: string; callbackUrl?: string } = {},
): Promise<Response> {
  const jar = opts.jar ?? new CookieJar()
  const csrfToken = await fetchCsrf(config, jar)
  const form: Record<string, string> = { csrfToken, email }
  if (opts.callbackUrl) form.callbackUrl = opts.callbackUrl
  const res = await Auth(postForm(`/auth/signin/${opts.providerId ?? "email"}`, form, { cookie: jar.header() }), config)
  jar.store(res)
  return res
}

/** Follows a link (absolute URL or path) in `jar`'s browser. */
export async function click(config: AuthConfig, link: string | URL, jar = new CookieJar()): Promise<Response> {
  const url = new URL(String(link), ORIGIN)
  const res = await Auth(get(url.pathname + url.search, { cookie: jar.header() }), config)
  jar.store(res)
  return res
}

/** GET /session in `jar`'s browser. */
export async function sessionOf(
  config: AuthConfig,
  jar: CookieJar,
): Promise<{ user?: { email?: string | null } } | null> {
  const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
  return (await res.json()) as { user?: { email?: string | null } } | null
}

/** The verify-request redirect a sent link answers with. */
export function expectVerifyRequest(res: Response, providerId = "email"): void {
  expect(res.status).toBe(302)
  expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/verify-request?provider=${providerId}&type=email`)
}

/** What createVerificationToken stored, in order. */
export function storedTokens(adapter: FaultyAdapter): { identifier: string; token: string; expires: Date }[] {
  return adapter.calls
    .filter((c) => c.method === "createVerificationToken")
    .map((c) => c.args[0] as { identifier: string; token: string; expires: Date })
}

/**
 * Sign-in rate limiting off (`rateLimit: false`, docs/rate-limit.md): these tests send many link requests from one test
 * process, which the default limits would refuse; the limits have their own tests.
 */
export const NO_RATE_LIMIT = { rateLimit: false } as unknown as Partial<AuthConfig>

export const ERROR_VERIFICATION = `${ORIGIN}/auth/error?error=Verification`
export const SIGNIN_EMAIL_ERROR = `${ORIGIN}/auth/signin?error=EmailSignin`
