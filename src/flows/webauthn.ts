// WebAuthn (passkeys): ceremony options for GET /webauthn-options/<id>, and the callback's verification → a verified
// identity (docs/wire-format.md §8.3). Verification runs in @simplewebauthn/server (the provider's); the
// challenge is single-use (security/webauthn-challenge.ts), the counter never goes back, and the RP comes from the
// canonical origin.
import { fromBase64, fromBase64Url, fromUtf8, randomBytes, randomUUID, toBase64, toBase64Url, utf8 } from "#crypto"
import { AdapterError, InvalidProvider, InvalidRequest, WebAuthnVerificationError } from "../errors.js"
import type { AdapterAuthenticator, AdapterUser } from "../adapters/index.js"
import type { AuthRequest, ResolvedConfig, VerifiedIdentity } from "../pipeline-types.js"
import type {
  GetUserInfoResult,
  RelayingParty,
  SimpleWebAuthnMethods,
  WebAuthnConfig,
  WebAuthnContext,
  WebAuthnRequest,
} from "../providers/webauthn.js"
import {
  challengeCookie,
  spendChallenge,
  type ChallengeRecord,
  type RegisteringUser,
  type WebAuthnAction,
} from "../security/webauthn-challenge.js"
import type { Cookie } from "../types.js"
import { SingleFlight } from "../lib/single-flight.js"
import { keyDigest, storeKey } from "../stores/keys.js"
import { withStoreLock } from "../stores/lock.js"
import { normalizeEmailAddress } from "../lib/email-address.js"

type Provider = Readonly<WebAuthnConfig>

/**
 * The provider's @simplewebauthn/server functions. WebAuthn() and Passkey() give the installed package's (imported on
 * first use by providers/webauthn.ts, so the package is named only where a WebAuthn provider is imported).
 */
async function simpleWebAuthn(provider: Provider): Promise<SimpleWebAuthnMethods> {
  if (provider.simpleWebAuthn) return provider.simpleWebAuthn
  throw new InvalidProvider(
    `The WebAuthn provider "${provider.id}" has no simpleWebAuthn: create it with WebAuthn() or Passkey() ` +
      "(gatehouse/providers/webauthn, gatehouse/providers/passkey), or pass @simplewebauthn/server's functions.",
  )
}

/** Auth.js's credential id in the adapter: standard base64 with padding (the browser sends base64url). */
const toStoredId = (base64url: string): string => toBase64(fromBase64Url(base64url))
const toWireId = (stored: string): string => toBase64Url(fromBase64(stored))
const transportsOf = (stored: string | null | undefined): string[] | undefined =>
  stored ? stored.split(",") : undefined

/** The request fields Auth.js hands to `getUserInfo` / `getRelayingParty`. */
function requestView(req: AuthRequest): WebAuthnRequest {
  return {
    method: req.method,
    query: Object.fromEntries(req.query),
    body: req.body,
    cookies: req.cookies,
    headers: req.headers,
  }
}

function contextOf(req: AuthRequest, config: ResolvedConfig, provider: Provider): WebAuthnContext {
  return {
    provider: provider as WebAuthnConfig,
    adapter: config.adapter!,
    url: new URL(`${req.origin}${config.basePath}`),
  }
}

const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v)
const all = (v: string | string[] | undefined, fallback: string): string[] =>
  v === undefined ? [fallback] : Array.isArray(v) ? v : [v]

/** The RP for options (first values) and every id / origin a response may carry (all configured values). */
function relyingParty(
  req: AuthRequest,
  config: ResolvedConfig,
  provider: Provider,
): RelayingParty & { ids: string[]; origins: string[] } {
  const context = contextOf(req, config, provider)
  if (provider.getRelayingParty) {
    const rp = provider.getRelayingParty(context, requestView(req))
    return { ...rp, ids: [rp.id], origins: [rp.origin] }
  }
  const url = context.url
  const option = provider.relayingParty ?? {}
  return {
    id: first(option.id) ?? url.hostname,
    name: first(option.name) ?? url.host,
    origin: first(option.origin) ?? url.origin,
    ids: all(option.id, url.hostname),
    origins: all(option.origin, url.origin),
  }
}

/** The default `getUserInfo`: the `email` query parameter (normalised as e-mail sign-in does), looked up in the adapter. */
async function defaultUserInfo(req: AuthRequest, config: ResolvedConfig): Promise<GetUserInfoResult | null> {
  const raw = req.method === "POST" ? req.body.email : req.query.get("email")
  if (typeof raw !== "string" || raw === "") return null
  let email: string
  try {
    email = normalizeEmailAddress(raw)
  } catch {
    return null
  }
  const existing = await config.adapter!.getUserByEmail(email)
  return existing ? { user: existing, exists: true } : { user: { email }, exists: false }
}

/** Auth.js's decision table: which ceremony a request gets, or null (400 Invalid request). */
function decide(
  action: WebAuthnAction | undefined,
  signedIn: boolean,
  info: GetUserInfoResult | null,
): WebAuthnAction | null {
  if (action === "authenticate") return "authenticate"
  if (action === "register") return info?.user && signedIn === info.exists ? "register" : null
  if (signedIn) return null
  return info?.user && !info.exists ? "register" : "authenticate"
}

/** What GET /webauthn-options answers: 200 `{ action, options }` with the challenge cookie, or 400 `{ error }`. */
export interface WebAuthnOptionsAnswer {
  status: 200 | 400
  body: { action: WebAuthnAction; options: unknown } | { error: string }
  cookies: Cookie[]
}

/** The user handle Gatehouse gives a credential: its user's id, prefixed, so the callback can check it (WA-06). */
const HANDLE_PREFIX = "gh1."
function userHandleFor(userId: string): Uint8Array {
  const bytes = utf8(`${HANDLE_PREFIX}${userId}`)
  // A user handle is at most 64 bytes (WebAuthn §5.4.3); an id too long for one gets an unchecked random handle.
  return bytes.length <= 64 ? bytes : randomBytes(32)
}

export async function webAuthnOptions(
  req: AuthRequest,
  config: ResolvedConfig,
  provider: Provider,
): Promise<WebAuthnOptionsAnswer> {
  const requested = req.query.get("action") ?? undefined
  if (requested !== undefined && requested !== "register" && requested !== "authenticate") {
    return { status: 400, body: { error: "Invalid action" }, cookies: [] }
  }
  const adapter = config.adapter!
  const sessionUser = await config.sessionStrategy.currentUser(req, config)
  const info: GetUserInfoResult | null = sessionUser
    ? { user: sessionUser, exists: true }
    : await (provider.getUserInfo
        ? provider.getUserInfo(contextOf(req, config, provider), requestView(req))
        : defaultUserInfo(req, config))
  const action = decide(requested, sessionUser !== undefined, info)
  const rp = relyingParty(req, config, provider)
  const lib = await simpleWebAuthn(provider)
  const existingId = info?.exists ? (info.user as AdapterUser).id : undefined
  const authenticators = existingId ? await adapter.listAuthenticatorsByUserId(existingId) : []
  const credentials = authenticators.map((a) => ({
    id: toWireId(a.credentialID),
    type: "public-key" as const,
    transports: transportsOf(a.transports),
  }))
  if (action === "authenticate") {
    const options = (await lib.generateAuthenticationOptions({
      ...provider.authenticationOptions,
      rpID: rp.id,
      ...(credentials.length ? { allowCredentials: credentials } : {}),
    } as never)) as { challenge: string }
    const cookie = await challengeCookie(req, config, { challenge: options.challenge, action, provider: provider.id })
    return { status: 200, body: { action, options }, cookies: [cookie] }
  }
  const email = info?.user.email
  if (action !== "register" || typeof email !== "string" || email === "")
    return { status: 400, body: { error: "Invalid request" }, cookies: [] }
  // A new user's id is chosen now, so the credential's user handle can name it (adapters that pick their own ids are handled in verify).
  const user: RegisteringUser = {
    id: existingId ?? randomUUID(),
    email,
    name: typeof info?.user.name === "string" ? info.user.name : null,
    exists: existingId !== undefined,
  }
  const options = (await lib.generateRegistrationOptions({
    ...provider.registrationOptions,
    rpID: rp.id,
    rpName: rp.name,
    userID: userHandleFor(user.id),
    userName: email,
    ...(user.name ? { userDisplayName: user.name } : {}),
    excludeCredentials: credentials,
  } as never)) as { challenge: string }
  const cookie = await challengeCookie(req, config, {
    challenge: options.challenge,
    action,
    provider: provider.id,
    user,
  })
  return { status: 200, body: { action, options }, cookies: [cookie] }
}

/** Largest `data` field accepted: a passkey response is a few KiB; attestation with certificates stays well under this. */
const MAX_DATA_LENGTH = 32 * 1024

/** The credential JSON of the callback body, with the shape checked (WA-07: malformed input is a 400, never a crash). */
function credentialData(req: AuthRequest): { id: string; response: Record<string, unknown> } & Record<string, unknown> {
  const raw = req.body.data
  if (typeof raw !== "string" || raw === "")
    throw new InvalidRequest("The WebAuthn callback needs `data`: the credential as JSON.")
  if (raw.length > MAX_DATA_LENGTH) throw new InvalidRequest("The WebAuthn credential in `data` is too large.")
  let data: unknown
  try {
    data = JSON.parse(raw)
  } catch {
    throw new InvalidRequest("The WebAuthn credential in `data` is not JSON.")
  }
  const record = data as { id?: unknown; rawId?: unknown; response?: unknown }
  if (
    !data ||
    typeof data !== "object" ||
    typeof record.id !== "string" ||
    !/^[A-Za-z0-9_-]{1,1366}$/.test(record.id)
  ) {
    throw new InvalidRequest("The WebAuthn credential has no valid `id`.")
  }
  if (!record.response || typeof record.response !== "object")
    throw new InvalidRequest("The WebAuthn credential has no `response`.")
  for (const value of Object.values(record.response)) {
    if (
      value !== undefined &&
      value !== null &&
      typeof value !== "string" &&
      !Array.isArray(value) &&
      typeof value !== "number"
    ) {
      throw new InvalidRequest("The WebAuthn credential's `response` fields must be base64url strings.")
    }
  }
  return data as { id: string; response: Record<string, unknown> }
}

/** Any failure of the library's checks becomes WebAuthnVerificationError, the cause kept for the log. */
async function verified<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (cause) {
    throw new WebAuthnVerificationError(`The WebAuthn ${what} could not be verified.`, { cause })
  }
}

/** One message for every way an assertion names no usable credential, so responses do not tell them apart (WA-06). */
const NOT_VERIFIED = "The WebAuthn authentication could not be verified."

export interface WebAuthnFinish {
  identity: VerifiedIdentity
}

/** POST /callback/<id>: checks the body's action, spends the challenge, verifies the response → the verified identity. */
export async function finishWebAuthn(
  req: AuthRequest,
  config: ResolvedConfig,
  provider: Provider,
): Promise<WebAuthnFinish> {
  const action = req.body.action
  if (action !== "register" && action !== "authenticate")
    throw new InvalidRequest("The WebAuthn callback needs `action`: register or authenticate.")
  const data = credentialData(req)
  const challenge = await spendChallenge(req, config, provider.id, action)
  return action === "authenticate"
    ? authenticate(req, config, provider, data, challenge)
    : register(req, config, provider, data, challenge)
}

/** Callbacks in flight per credential id in this process: each one's read, check and write of the counter runs after the previous one's. */
const counterTurns = new SingleFlight<string, WebAuthnFinish>()

/** How long a process may hold a credential's counter lock: the callback's few adapter calls end well within it. */
const COUNTER_LOCK_TTL_S = 30
/** How long a callback waits for another process's hold on the same credential before it is refused. */
const COUNTER_LOCK_WAIT_MS = 10_000
const COUNTER_LOCK_POLL_MS = [5, 10, 20, 50, 100, 200]

/**
 * The counter check and write of one credential, one process at a time among all processes sharing `config.store`
 * (PostgreSQL or Redis; the memory default is this process): a lock on a per-credential key, released after the
 * write. Another process's hold is waited for up to COUNTER_LOCK_WAIT_MS, then the callback is refused (a holder that
 * died frees the key after its TTL). If the store itself fails, the error is logged and the order holds in this
 * process only, as before the store was asked.
 */
async function acrossProcesses<T>(config: ResolvedConfig, credentialID: string, run: () => Promise<T>): Promise<T> {
  // The key's value is the one earlier versions used, so old and new processes exclude each other in a rolling upgrade.
  return withStoreLock(
    config.store,
    storeKey("webauthn", "counter", await keyDigest(credentialID)),
    {
      ttlSeconds: COUNTER_LOCK_TTL_S,
      waitMs: COUNTER_LOCK_WAIT_MS,
      backoffMs: COUNTER_LOCK_POLL_MS,
      onWaitTimeout: () => {
        throw new WebAuthnVerificationError(NOT_VERIFIED, {
          cause: new Error("another sign-in with this passkey is still in progress"),
        })
      },
      onStoreError: (cause) => {
        config.logger.error(
          new AdapterError("The shared store failed; the passkey counter is ordered in this process only.", { cause }),
        )
        return run()
      },
      onReleaseError: (cause) =>
        config.logger.error(
          new AdapterError("The passkey counter lock could not be released; it expires on its own.", { cause }),
        ),
    },
    run,
  )
}

function authenticate(
  req: AuthRequest,
  config: ResolvedConfig,
  provider: Provider,
  data: { id: string; response: Record<string, unknown> },
  challenge: ChallengeRecord,
): Promise<WebAuthnFinish> {
  const credentialID = toStoredId(data.id)
  // Without the in-process turns two assertions verified at the same time both pass the counter check against the
  // same stored value, and the later write can lower the counter.
  return counterTurns.oneAtATime(credentialID, () =>
    acrossProcesses(config, credentialID, () => authenticateOnce(req, config, provider, data, challenge)),
  )
}

async function authenticateOnce(
  req: AuthRequest,
  config: ResolvedConfig,
  provider: Provider,
  data: { id: string; response: Record<string, unknown> },
  challenge: ChallengeRecord,
): Promise<WebAuthnFinish> {
  const adapter = config.adapter!
  const credentialID = toStoredId(data.id)
  const authenticator = await adapter.getAuthenticator(credentialID)
  if (!authenticator) throw new WebAuthnVerificationError(NOT_VERIFIED, { cause: new Error("unknown credential id") })
  const rp = relyingParty(req, config, provider)
  const lib = await simpleWebAuthn(provider)
  const result = (await verified("authentication", () =>
    lib.verifyAuthenticationResponse({
      ...provider.verifyAuthenticationOptions,
      response: data,
      expectedChallenge: challenge.challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.ids,
      credential: {
        id: data.id,
        publicKey: fromBase64(authenticator.credentialPublicKey),
        counter: Number(authenticator.counter),
        transports: transportsOf(authenticator.transports),
      },
    } as never),
  )) as { verified: boolean; authenticationInfo: { newCounter: number } }
  if (!result.verified) throw new WebAuthnVerificationError(NOT_VERIFIED)
  const stored = Number(authenticator.counter)
  const counter = result.authenticationInfo.newCounter
  // WA-04: a counter that does not move forward is a cloned authenticator (0 and 0 is a passkey that keeps none).
  if ((stored > 0 || counter > 0) && counter <= stored)
    throw new WebAuthnVerificationError(NOT_VERIFIED, { cause: new Error(`counter ${counter} is not above ${stored}`) })
  const account = await adapter.getAccount(authenticator.providerAccountId, provider.id)
  const user = account ? await adapter.getUser(account.userId) : null
  if (!account || !user)
    throw new WebAuthnVerificationError(NOT_VERIFIED, { cause: new Error("the credential's account or user is gone") })
  await checkUserHandle(data.response.userHandle, user, config)
  // The stored counter only ever goes up.
  if (counter > stored) await adapter.updateAuthenticatorCounter(authenticator.credentialID, counter)
  return {
    identity: {
      user,
      account: { provider: provider.id, type: "webauthn", providerAccountId: authenticator.providerAccountId },
    },
  }
}

/**
 * WebAuthn §7.2 step 6: a response's user handle must name the credential's owner. Handles Gatehouse issued carry the
 * user id; one naming another existing user is refused (WA-06). Handles from elsewhere (Auth.js's random ones), or
 * naming an id no user has (an adapter that chose its own id at sign-up), are not evidence either way.
 */
async function checkUserHandle(handle: unknown, owner: AdapterUser, config: ResolvedConfig): Promise<void> {
  if (typeof handle !== "string" || handle === "") return
  const text = fromUtf8(fromBase64Url(handle))
  if (!text.startsWith(HANDLE_PREFIX)) return
  const claimed = text.slice(HANDLE_PREFIX.length)
  if (claimed === owner.id) return
  let other: AdapterUser | null = null
  try {
    other = await config.adapter!.getUser(claimed)
  } catch {
    other = null // an id of the wrong shape for the adapter's column: no such user
  }
  if (other && other.id !== owner.id)
    throw new WebAuthnVerificationError(NOT_VERIFIED, { cause: new Error("the user handle names another user") })
}

async function register(
  req: AuthRequest,
  config: ResolvedConfig,
  provider: Provider,
  data: { id: string; response: Record<string, unknown> },
  challenge: ChallengeRecord,
): Promise<WebAuthnFinish> {
  const user = challenge.user
  if (!user) throw new WebAuthnVerificationError("The WebAuthn registration challenge names no user.")
  // A passkey added to an account goes to that account only: the same user must still be signed in. A sign-up started
  // signed out must finish signed out, or linking would add the new passkey to whoever signed in meanwhile.
  const current = await config.sessionStrategy.currentUser(req, config)
  if (user.exists && current?.id !== user.id)
    throw new WebAuthnVerificationError("The registration was started by another signed-in user.")
  if (!user.exists && current)
    throw new WebAuthnVerificationError(
      "The sign-up registration was started signed out; a signed-in user adds a passkey from options asked for while signed in.",
    )
  const rp = relyingParty(req, config, provider)
  const lib = await simpleWebAuthn(provider)
  const result = (await verified("registration", () =>
    lib.verifyRegistrationResponse({
      ...provider.verifyRegistrationOptions,
      response: data,
      expectedChallenge: challenge.challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.ids,
    } as never),
  )) as {
    verified: boolean
    registrationInfo?: {
      credential: { id: string; publicKey: Uint8Array; counter: number; transports?: string[] }
      credentialDeviceType: string
      credentialBackedUp: boolean
    }
  }
  const info = result.registrationInfo
  if (!result.verified || !info) throw new WebAuthnVerificationError("The WebAuthn registration could not be verified.")
  const credentialID = toStoredId(info.credential.id)
  if (await config.adapter!.getAuthenticator(credentialID))
    throw new WebAuthnVerificationError("This credential is already registered.")
  const transports = Array.isArray(data.response.transports)
    ? data.response.transports.filter((t): t is string => typeof t === "string")
    : info.credential.transports
  const authenticator: Omit<AdapterAuthenticator, "userId"> = {
    providerAccountId: credentialID,
    credentialID,
    credentialPublicKey: toBase64(info.credential.publicKey),
    counter: info.credential.counter,
    credentialBackedUp: info.credentialBackedUp,
    credentialDeviceType: info.credentialDeviceType,
    transports: transports?.length ? transports.join(",") : null,
  }
  return {
    identity: {
      user: { id: user.id, email: user.email, ...(user.name ? { name: user.name } : {}) },
      account: { provider: provider.id, type: "webauthn", providerAccountId: credentialID },
      authenticator,
    },
  }
}
