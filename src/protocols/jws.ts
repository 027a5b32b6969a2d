// ID token signature verification on node:crypto with a cached JWKS: OIDC Core §3.1.3.7 steps 6-8, checked even for
// ID tokens from the token endpoint (our policy, ASVS 6.8.2).
import { type KeyObject, createHmac, createPublicKey, timingSafeEqual, verify, constants } from "node:crypto"
import { OAuthCallbackError } from "../errors.js"
import { SingleFlight } from "../lib/single-flight.js"

interface Jwk {
  kty?: string
  kid?: string
  use?: string
  alg?: string
  [k: string]: unknown
}
interface JwksEntry {
  keys: { jwk: Jwk; key: KeyObject | undefined }[]
  fetchedAt: number
}

/** A JWKS is refetched for an unknown `kid` at most once per this many ms (docs/security.md OA-17, docs/security.md DS-02). */
export const JWKS_COOLDOWN_MS = 30_000
/** A cached JWKS is refreshed after this long even when every kid is known. */
const JWKS_MAX_AGE_MS = 10 * 60_000

const jwksCache = new Map<string, JwksEntry>()
/** Concurrent fetches of one JWKS URI share one request. */
const inflight = new SingleFlight<string, JwksEntry>()

function fetchJwks(uri: string, fetchFn: typeof fetch): Promise<JwksEntry> {
  return inflight.share(uri, async () => {
    const response = await fetchFn(uri, { headers: { accept: "application/json, application/jwk-set+json" } })
    if (response.status !== 200) throw new OAuthCallbackError(`JWKS request answered ${response.status}.`)
    const body = (await response.json().catch(() => undefined)) as { keys?: unknown } | undefined
    if (!body || !Array.isArray(body.keys)) throw new OAuthCallbackError("JWKS response has no keys array.")
    const keys = (body.keys as Jwk[])
      .filter((k) => typeof k === "object" && k !== null && k.use !== "enc")
      .map((jwk) => {
        let key: KeyObject | undefined
        try {
          key = createPublicKey({ key: jwk as import("node:crypto").JsonWebKey, format: "jwk" })
        } catch {
          key = undefined
        }
        return { jwk, key }
      })
    const entry = { keys, fetchedAt: Date.now() }
    jwksCache.set(uri, entry)
    return entry
  })
}

const KTY: Record<string, string> = { RS: "RSA", PS: "RSA", ES: "EC", Ed: "OKP" }

function ktyFor(alg: string): string | undefined {
  return alg === "EdDSA" ? "OKP" : KTY[alg.slice(0, 2)]
}

function candidates(entry: JwksEntry, kid: string | undefined, alg: string): JwksEntry["keys"] {
  const kty = ktyFor(alg)
  return entry.keys.filter(
    (k) =>
      k.key &&
      k.jwk.kty === kty &&
      (kid === undefined || k.jwk.kid === kid) &&
      (k.jwk.alg === undefined || k.jwk.alg === alg),
  )
}

function verifyWith(alg: string, key: KeyObject, data: Buffer, signature: Buffer): boolean {
  const bits = alg.slice(2)
  const hash = `sha${bits}`
  switch (alg) {
    case "RS256":
    case "RS384":
    case "RS512":
      return verify(hash, data, key, signature)
    case "PS256":
    case "PS384":
    case "PS512":
      return verify(
        hash,
        data,
        { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: Number(bits) / 8 },
        signature,
      )
    case "ES256":
    case "ES384":
    case "ES512":
      return verify(hash, data, { key, dsaEncoding: "ieee-p1363" }, signature)
    case "EdDSA":
    case "Ed25519":
      return verify(null, data, key, signature)
    default:
      throw new OAuthCallbackError(`Unsupported algorithm ${alg}.`)
  }
}

export interface VerifySignatureOptions {
  /** The only algorithm accepted (the registered `id_token_signed_response_alg`, default RS256). */
  expectedAlg: string
  jwksUri: string | undefined
  /** For HS* algorithms: the client secret. */
  clientSecret: string | undefined
  fetch: typeof fetch
}

/**
 * Verifies a compact JWS signature: `alg` must be the expected one (never `none`), the key is chosen by `kid`
 * (without `kid`, only when exactly one key fits), and an unknown `kid` triggers at most one JWKS refetch per cooldown.
 */
export async function verifyJwsSignature(jws: string, options: VerifySignatureOptions): Promise<void> {
  const parts = jws.split(".")
  if (parts.length !== 3) throw new OAuthCallbackError("Not a compact JWS.")
  const [h = "", p = "", s = ""] = parts
  let header: { alg?: unknown; kid?: unknown; crit?: unknown }
  try {
    header = JSON.parse(Buffer.from(h, "base64url").toString("utf8"))
  } catch {
    throw new OAuthCallbackError("JWS header is not JSON.")
  }
  const alg = header.alg
  if (typeof alg !== "string" || alg === "none" || alg !== options.expectedAlg)
    throw new OAuthCallbackError(`ID token alg must be ${options.expectedAlg}.`)
  if (header.crit !== undefined) throw new OAuthCallbackError("Unsupported crit header.")
  const kid = typeof header.kid === "string" ? header.kid : undefined
  const data = Buffer.from(`${h}.${p}`, "ascii")
  const signature = Buffer.from(s, "base64url")
  if (alg.startsWith("HS")) {
    if (!options.clientSecret) throw new OAuthCallbackError("HMAC ID tokens need a client secret.")
    const expected = createHmac(`sha${alg.slice(2)}`, options.clientSecret)
      .update(data)
      .digest()
    if (expected.length !== signature.length || !timingSafeEqual(expected, signature))
      throw new OAuthCallbackError("ID token signature is invalid.")
    return
  }
  if (!options.jwksUri) throw new OAuthCallbackError("The provider publishes no jwks_uri to verify ID tokens with.")
  let entry = jwksCache.get(options.jwksUri)
  if (!entry || Date.now() - entry.fetchedAt > JWKS_MAX_AGE_MS) entry = await fetchJwks(options.jwksUri, options.fetch)
  let keys = candidates(entry, kid, alg)
  if (keys.length === 0 && Date.now() - entry.fetchedAt >= JWKS_COOLDOWN_MS) {
    entry = await fetchJwks(options.jwksUri, options.fetch)
    keys = candidates(entry, kid, alg)
  }
  if (keys.length === 0) throw new OAuthCallbackError("No JWKS key matches the ID token.")
  if (kid === undefined && keys.length > 1)
    throw new OAuthCallbackError("The ID token has no kid and the JWKS has several keys.")
  if (!verifyWith(alg, keys[0]!.key as KeyObject, data, signature))
    throw new OAuthCallbackError("ID token signature is invalid.")
}

/** Test hook: forget cached key sets. */
export function clearJwksCache(): void {
  jwksCache.clear()
}
