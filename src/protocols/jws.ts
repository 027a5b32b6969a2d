// ID token signature verification through the crypto seam with a cached JWKS: OIDC Core §3.1.3.7 steps 6-8, checked
// even for ID tokens from the token endpoint (our policy, ASVS 6.8.2). The seam makes each JWK's key once (per JWK
// object, and the cache keeps the objects).
import { fromBase64Url, fromUtf8, hmac, timingSafeEqual, utf8, verifyJws } from "#crypto"
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
  keys: Jwk[]
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
    const keys = (body.keys as unknown[]).filter(isPublicKeyJwk)
    const entry = { keys, fetchedAt: Date.now() }
    jwksCache.set(uri, entry)
    return entry
  })
}

/** A JWK with the members of an RSA, EC or OKP public key, not marked for encryption. */
function isPublicKeyJwk(k: unknown): k is Jwk {
  if (typeof k !== "object" || k === null) return false
  const jwk = k as Jwk
  if (jwk.use === "enc") return false
  const has = (...names: string[]): boolean => names.every((name) => typeof jwk[name] === "string")
  return jwk.kty === "RSA"
    ? has("n", "e")
    : jwk.kty === "EC"
      ? has("crv", "x", "y")
      : jwk.kty === "OKP" && has("crv", "x")
}

const KTY: Record<string, string> = { RS: "RSA", PS: "RSA", ES: "EC", Ed: "OKP" }

function ktyFor(alg: string): string | undefined {
  return alg === "EdDSA" ? "OKP" : KTY[alg.slice(0, 2)]
}

function candidates(entry: JwksEntry, kid: string | undefined, alg: string): JwksEntry["keys"] {
  const kty = ktyFor(alg)
  return entry.keys.filter(
    (jwk) => jwk.kty === kty && (kid === undefined || jwk.kid === kid) && (jwk.alg === undefined || jwk.alg === alg),
  )
}

const ALGS = new Set([
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
])
const HMAC_HASH = { HS256: "SHA-256", HS384: "SHA-384", HS512: "SHA-512" } as const

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
    header = JSON.parse(fromUtf8(fromBase64Url(h)))
  } catch {
    throw new OAuthCallbackError("JWS header is not JSON.")
  }
  const alg = header.alg
  if (typeof alg !== "string" || alg === "none" || alg !== options.expectedAlg)
    throw new OAuthCallbackError(`ID token alg must be ${options.expectedAlg}.`)
  if (header.crit !== undefined) throw new OAuthCallbackError("Unsupported crit header.")
  const kid = typeof header.kid === "string" ? header.kid : undefined
  const data = utf8(`${h}.${p}`)
  const signature = fromBase64Url(s)
  if (alg.startsWith("HS")) {
    const hash = HMAC_HASH[alg as keyof typeof HMAC_HASH]
    if (!hash) throw new OAuthCallbackError(`Unsupported algorithm ${alg}.`)
    if (!options.clientSecret) throw new OAuthCallbackError("HMAC ID tokens need a client secret.")
    if (!timingSafeEqual(await hmac(hash, options.clientSecret, data), signature))
      throw new OAuthCallbackError("ID token signature is invalid.")
    return
  }
  if (!ALGS.has(alg)) throw new OAuthCallbackError(`Unsupported algorithm ${alg}.`)
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
  let valid: boolean
  try {
    valid = await verifyJws(alg, keys[0] as JsonWebKey, data, signature)
  } catch (cause) {
    throw new OAuthCallbackError("The JWKS key for the ID token is not a usable key.", { cause })
  }
  if (!valid) throw new OAuthCallbackError("ID token signature is invalid.")
}

/** Test hook: forget cached key sets. */
export function clearJwksCache(): void {
  jwksCache.clear()
}
