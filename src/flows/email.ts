// E-mail (magic link) sign-in: normalise the address, mint a token stored only as a hash, send the link; on the click,
// use the token once and hand back the verified identity (docs/wire-format.md §8.1). Users and sessions are made by the
// callback path.
import { type Awaitable, digest, randomBytes, randomUUID, toHex } from "#crypto"
import { AdapterError, EmailSignInError, UntrustedHost, Verification } from "../errors.js"
import { userByEmailAddress } from "../account/link.js"
import type { GuardedAdapter } from "../adapters/guarded-adapter.js"
import type { AdapterUser, VerificationToken } from "../adapters/index.js"
import type { AuthRequest, ResolvedConfig, ResolvedProvider, VerifiedIdentity } from "../pipeline-types.js"
import { normalizeEmailAddress } from "../lib/email-address.js"
import type { EmailConfig, EmailProviderSendVerificationRequestParams } from "../providers/types.js"
import { bodyString } from "../lib/body-fields.js"
import { resolveCallbackUrl } from "../security/redirect.js"
import type { Account } from "../types.js"

/** Link lifetime when the provider sets no `maxAge`: 24 hours, as in Auth.js. */
const DEFAULT_EMAIL_MAX_AGE = 24 * 60 * 60

/** An e-mail provider as the flow reads it. */
type EmailProvider = Readonly<EmailConfig>

/** Narrows a resolved provider to an e-mail provider (the config check guarantees `sendVerificationRequest`). */
export function asEmailProvider(provider: ResolvedProvider): EmailProvider {
  return provider as unknown as EmailProvider
}

/**
 * The address through the provider's `normalizeIdentifier` (or the default); any failure is EmailSignInError. The
 * rate-limit guard keys on it too, so a custom normaliser (say, one that drops `+tags`) cannot be used to dodge it.
 */
export function normalize(provider: EmailProvider, raw: unknown): string {
  if (typeof raw !== "string" || raw === "")
    throw new EmailSignInError("No e-mail address was given: send it in the `email` field.")
  if (!provider.normalizeIdentifier) return normalizeEmailAddress(raw)
  let out: unknown
  try {
    out = provider.normalizeIdentifier(raw)
  } catch (cause) {
    throw new EmailSignInError("The provider's `normalizeIdentifier` refused the e-mail address.", { cause })
  }
  // Whatever a custom normaliser returns, a line break or control character must never reach a mail header.
  if (typeof out !== "string" || out === "" || /[\p{Cc}\p{Zl}\p{Zp}]/u.test(out)) {
    throw new EmailSignInError(
      "The provider's `normalizeIdentifier` returned an empty value or one with control characters.",
    )
  }
  return out
}

/**
 * The secrets a token hash may be made with, newest first: the provider's `secret`, else each configured secret, and
 * last the comma-joined list, which is how Auth.js hashes when `secret` is an array (so its pending links still work).
 */
function tokenSecrets(provider: EmailProvider, config: ResolvedConfig): string[] {
  if (typeof provider.secret === "string" && provider.secret !== "") return [provider.secret]
  const list = [...config.secrets]
  if (list.length > 1) list.push(config.csrfSecret)
  return list
}

/** What is stored for a token: SHA-256 of token + secret, hex (the same as Auth.js, so rows stay interchangeable). */
function hashToken(token: string, secret: string): Awaitable<string> {
  return digest("SHA-256", `${token}${secret}`, "hex")
}

/** The user the signIn callback and the flow see: the adapter's user for the address, or a placeholder. */
async function userFor(adapter: GuardedAdapter, email: string): Promise<AdapterUser> {
  return (await userByEmailAddress(adapter, email)) ?? { id: randomUUID(), email, emailVerified: null }
}

/**
 * The origin a mailed link is built from: AUTH_URL's, else the request's when `trustedOrigins` lists it. The link
 * leaves the request, so a Host or X-Forwarded-Host header alone must never choose it: whoever sent the request would
 * get the victim's token (docs/security.md EM-11). Neither configured: UntrustedHost, before anything is stored or sent.
 */
function linkOrigin(req: AuthRequest, config: ResolvedConfig): string {
  if (config.canonicalUrl) return config.canonicalUrl.origin
  if (config.isTrustedOrigin(req.origin)) return req.origin
  throw new UntrustedHost(
    `E-mail sign-in needs a configured origin for the link it mails, and ${req.origin} is not one: set ` +
      "AUTH_URL=https://your.app/auth, or list the origin in trustedOrigins (AUTH_TRUSTED_ORIGINS) when the app serves several hosts.",
  )
}

function identityOf(user: AdapterUser, email: string, provider: EmailProvider): VerifiedIdentity {
  const account: Account = { providerAccountId: email, userId: user.id, type: "email", provider: provider.id }
  return { user, account }
}

/** Where the verify-request page is (after a link was sent). */
function verifyRequestUrl(req: AuthRequest, config: ResolvedConfig, provider: EmailProvider): string {
  return `${req.origin}${config.basePath}/verify-request?${new URLSearchParams({ provider: provider.id, type: provider.type })}`
}

/** A web Request for `sendVerificationRequest`, made only if it reads `request`. */
function lazyRequest(req: AuthRequest): () => Request {
  let made: Request | undefined
  return () => {
    made ??= new Request(req.url, {
      method: req.method,
      headers: req.headers,
      ...(req.method === "POST" ? { body: req.form ? req.form.toString() : JSON.stringify(req.body) } : {}),
    })
    return made
  }
}

/** The first step, split from `startEmail` so the caller can run the signIn callback between it and the send. */
export interface EmailStart {
  readonly identity: VerifiedIdentity
  /** Mints, stores and sends the link; resolves to the verify-request redirect. */
  send(): Promise<string>
}

/**
 * POST /signin/<id>: the normalised address and its user (for the signIn callback), then, on `send()`, the token:
 * stored as a hash with its expiry, mailed as a link. A failed send deletes the row and is EmailSignInError.
 */
export async function startEmail(
  req: AuthRequest,
  config: ResolvedConfig,
  provider: EmailProvider,
): Promise<EmailStart> {
  const adapter = config.adapter as GuardedAdapter
  const origin = linkOrigin(req, config)
  const email = normalize(provider, bodyString(req, "email") ?? undefined)
  const identity = identityOf(await userFor(adapter, email), email, provider)
  const send = async (): Promise<string> => {
    const generated = provider.generateVerificationToken
      ? await provider.generateVerificationToken()
      : toHex(randomBytes(32))
    if (typeof generated !== "string" || generated === "")
      throw new EmailSignInError("`generateVerificationToken` must return a non-empty string.")
    const token = generated
    const secret = tokenSecrets(provider, config)[0] as string
    const hashed = await hashToken(token, secret)
    const expires = new Date(Date.now() + (provider.maxAge ?? DEFAULT_EMAIL_MAX_AGE) * 1000)
    const callbackUrl = await resolveCallbackUrl(req, config)
    const url = `${origin}${config.basePath}/callback/${encodeURIComponent(provider.id)}?${new URLSearchParams({ callbackUrl, token, email })}`
    // Stored before the mail goes out: a link is never sent for a token that was not saved.
    await adapter.createVerificationToken({ identifier: email, token: hashed, expires })
    const request = lazyRequest(req)
    const params: EmailProviderSendVerificationRequestParams = {
      identifier: email,
      url,
      expires,
      provider: provider as EmailConfig,
      token,
      theme: config.theme,
      get request() {
        return request()
      },
    }
    try {
      await provider.sendVerificationRequest(params)
    } catch (cause) {
      try {
        await adapter.useVerificationToken({ identifier: email, token: hashed })
      } catch (error) {
        config.logger.error(error as Error)
      }
      throw new EmailSignInError(`Provider "${provider.id}" could not send the sign-in e-mail.`, { cause })
    }
    config.logger.debug("email: link sent", { provider: provider.id })
    return verifyRequestUrl(req, config, provider)
  }
  return { identity, send }
}

/** Uses the row of one hash; an adapter failure counts as no row (docs/security.md DB-04) after it is logged. */
async function useToken(
  adapter: GuardedAdapter,
  identifier: string,
  token: string,
  config: ResolvedConfig,
): Promise<VerificationToken | null> {
  try {
    return await adapter.useVerificationToken({ identifier, token })
  } catch (error) {
    config.logger.error(
      error instanceof AdapterError ? error : new AdapterError("useVerificationToken failed.", { cause: error }),
    )
    throw new Verification("The sign-in link could not be checked; ask for a new one.", { cause: error })
  }
}

/**
 * GET /callback/<id>?token&email: uses the token once (under each secret, newest first, so links sent before a
 * rotation still work). Unknown, used, expired or for another address: Verification. Returns the identity to link.
 */
export async function finishEmail(
  req: AuthRequest,
  config: ResolvedConfig,
  provider: EmailProvider,
): Promise<VerifiedIdentity> {
  const adapter = config.adapter as GuardedAdapter
  const token = req.query.get("token")
  const rawEmail = req.query.get("email")
  if (!token || !rawEmail) throw new Verification("The sign-in link has no token or no e-mail address.")
  let email: string
  try {
    email = normalize(provider, rawEmail)
  } catch (cause) {
    throw new Verification("The e-mail address of the sign-in link is not valid.", { cause })
  }
  let row: VerificationToken | null = null
  for (const secret of tokenSecrets(provider, config)) {
    row = await useToken(adapter, email, await hashToken(token, secret), config)
    if (row) break
  }
  if (!row) throw new Verification("The sign-in link is unknown or was used already.")
  const expires = row.expires instanceof Date ? row.expires : new Date(row.expires as unknown as string)
  // The row is gone already (useVerificationToken deletes it), so an expired link leaves nothing behind.
  if (Number.isNaN(expires.valueOf()) || expires.valueOf() < Date.now())
    throw new Verification("The sign-in link has expired.")
  if (row.identifier !== email) throw new Verification("The sign-in link belongs to another e-mail address.")
  config.logger.debug("email: link used", { provider: provider.id })
  return identityOf(await userFor(adapter, email), email, provider)
}
