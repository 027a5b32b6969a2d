// A software WebAuthn authenticator (platform passkey) for Node-level tests: node:crypto only, no browser, no dependencies.
//
// It plays both halves a test would otherwise need a browser for: the client (clientDataJSON, origin, JSON encoding) and the
// authenticator (authenticator data, COSE key, "none" or self "packed" attestation, assertion signatures). Overrides tamper with
// one response at the point the real field is made, so the signature stays valid over the tampered bytes unless told otherwise.

import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  randomInt,
  sign,
  type KeyObject,
} from "node:crypto"

// ---------------------------------------------------------------------------------------------------------------- base64url

/** Bytes as unpadded base64url. */
export function b64url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url")
}

/** A base64url (or base64) string as bytes (a plain Uint8Array, not a Buffer). */
export function fromB64url(s: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(s, "base64url"))
}

// --------------------------------------------------------------------------------------------------------------------- CBOR

/** What `encodeCbor` takes: ints (incl. negative), text, bytes, booleans, null, arrays, Maps (int or text keys) and plain objects (text keys). */
export type CborValue =
  | number
  | bigint
  | string
  | boolean
  | null
  | undefined
  | Uint8Array
  | CborValue[]
  | Map<number | string, CborValue>
  | { [key: string]: CborValue }

function cborHead(major: number, arg: number | bigint): Uint8Array {
  const n = BigInt(arg)
  if (n < 0n) throw new RangeError("CBOR head argument must be non-negative")
  const m = major << 5
  if (n < 24n) return Uint8Array.of(m | Number(n))
  if (n < 0x100n) return Uint8Array.of(m | 24, Number(n))
  if (n < 0x10000n) return Uint8Array.of(m | 25, Number(n >> 8n), Number(n & 0xffn))
  const out = new Uint8Array(n < 0x100000000n ? 5 : 9)
  const view = new DataView(out.buffer)
  if (out.length === 5) {
    out[0] = m | 26
    view.setUint32(1, Number(n))
  } else {
    out[0] = m | 27
    view.setBigUint64(1, n)
  }
  return out
}

function cborParts(value: CborValue, out: Uint8Array[]): void {
  if (typeof value === "number" || typeof value === "bigint") {
    if (typeof value === "number" && !Number.isSafeInteger(value))
      throw new TypeError(`encodeCbor: ${value} is not an integer`)
    const n = BigInt(value)
    out.push(n >= 0n ? cborHead(0, n) : cborHead(1, -1n - n))
  } else if (typeof value === "string") {
    const bytes = new TextEncoder().encode(value)
    out.push(cborHead(3, bytes.length), bytes)
  } else if (typeof value === "boolean") {
    out.push(Uint8Array.of(value ? 0xf5 : 0xf4))
  } else if (value === null) {
    out.push(Uint8Array.of(0xf6))
  } else if (value === undefined) {
    out.push(Uint8Array.of(0xf7))
  } else if (value instanceof Uint8Array) {
    out.push(cborHead(2, value.length), value)
  } else if (Array.isArray(value)) {
    out.push(cborHead(4, value.length))
    for (const item of value) cborParts(item, out)
  } else {
    const entries: [number | string, CborValue][] = value instanceof Map ? [...value] : Object.entries(value)
    out.push(cborHead(5, entries.length))
    for (const [k, v] of entries) {
      cborParts(k, out)
      cborParts(v, out)
    }
  }
}

/** CBOR-encodes a value; map keys keep their insertion order (no canonical sorting), so tests can build odd encodings too. */
export function encodeCbor(value: CborValue): Uint8Array<ArrayBuffer> {
  const parts: Uint8Array[] = []
  cborParts(value, parts)
  return concat(...parts)
}

// ------------------------------------------------------------------------------------------------------------------- types

/** The COSE algorithms the authenticator can make keys for. */
export type SoftAlg = "ES256" | "EdDSA"

/** The COSE algorithm identifier of each supported algorithm. */
export const COSE_ALG: Record<SoftAlg, number> = { ES256: -7, EdDSA: -8 }

/** Options for `createSoftAuthenticator`. */
export interface SoftAuthenticatorOptions {
  /** Key type of every credential it makes. */
  alg: SoftAlg
  /** The RP ID it is bound to (hashed into authenticator data); options naming another RP ID are refused like a browser would. */
  rpId: string
  /** The origin written into clientDataJSON, e.g. "http://localhost:3000". */
  origin: string
  /** Counter at registration, +1 per assertion (default 0); "zero" always sends 0, like iCloud and Google passkeys. */
  signCount?: number | "zero"
  /** Whether it sets UV (default true, as platform passkeys do). */
  userVerification?: boolean
  /** Set the BE (backup eligible) flag (default false). */
  backupEligible?: boolean
  /** Set the BS (backed up) flag (default false). */
  backedUp?: boolean
  /** Attestation format at registration (default "none"; "packed" is self attestation signed with the new key). */
  attestation?: "none" | "packed"
  /** Value of response.authenticatorAttachment (default "platform"). */
  attachment?: "platform" | "cross-platform"
  /** Transports reported at registration (default ["internal"]). */
  transports?: string[]
}

/** A credential descriptor as it appears in options JSON. */
export interface CredentialDescriptorJSON {
  id: string
  type: string
  transports?: string[]
}

/** The fields of PublicKeyCredentialCreationOptionsJSON the authenticator reads (@simplewebauthn's type is assignable). */
export interface CreationOptionsJSON {
  challenge: string
  rp: { id?: string; name: string }
  user: { id: string; name: string; displayName: string }
  pubKeyCredParams?: { type: string; alg: number }[]
  excludeCredentials?: CredentialDescriptorJSON[]
  timeout?: number
  authenticatorSelection?: object
  attestation?: string
  extensions?: object
  hints?: string[]
}

/** The fields of PublicKeyCredentialRequestOptionsJSON the authenticator reads (@simplewebauthn's type is assignable). */
export interface RequestOptionsJSON {
  challenge: string
  rpId?: string
  allowCredentials?: CredentialDescriptorJSON[]
  timeout?: number
  userVerification?: string
  extensions?: object
  hints?: string[]
}

/** Tampering applied to one response; the signature covers the tampered bytes unless `breakSignature` is set. */
export interface SoftOverrides {
  /** clientData.origin. */
  origin?: string
  /** clientData.type (e.g. "webauthn.get" in a registration). */
  type?: string
  /** clientData.challenge (base64url as sent). */
  challenge?: string
  /** clientData.crossOrigin. */
  crossOrigin?: boolean
  /** clientData.topOrigin (omitted unless given). */
  topOrigin?: string
  /** clientData.tokenBinding (omitted unless given). */
  tokenBinding?: { status: string; id?: string } | string
  /** Extra clientData members merged last (a member set to undefined is dropped). */
  clientData?: Record<string, unknown>
  /** RP ID hashed into authenticator data (skips the RP ID check on the options too). */
  rpId?: string
  /** The whole flags byte, replacing the computed one. */
  flags?: number
  /** false clears UP. */
  userPresent?: boolean
  /** false clears UV (true sets it). */
  userVerified?: boolean
  /** Signature counter written into authenticator data for this response only (the stored counter still advances as usual). */
  counter?: number
  /** Credential id (base64url) put in id/rawId (and, at registration, in the attested credential data) instead of the real one. */
  credentialId?: string
  /** Flip a bit of the signature after signing (assertions and "packed" attestation). */
  breakSignature?: boolean
}

/** Overrides for `register`. */
export interface RegisterOverrides extends SoftOverrides {
  /** Make the credential even if the options exclude one this authenticator holds (a real one refuses with InvalidStateError). */
  ignoreExcludeCredentials?: boolean
  /** Attestation format string written into the attestation object. */
  fmt?: string
  /** Attestation statement written into the attestation object. */
  attStmt?: CborValue
}

/** Overrides for `authenticate`. */
export interface AuthenticateOverrides extends SoftOverrides {
  /** response.userHandle (base64url); null omits it. */
  userHandle?: string | null
  /** Sign with this credential (base64url id) instead of picking one from allowCredentials. */
  useCredential?: string
}

/** A RegistrationResponseJSON (assignable to @simplewebauthn's). */
export interface SoftRegistrationResponseJSON {
  id: string
  rawId: string
  type: "public-key"
  response: {
    clientDataJSON: string
    attestationObject: string
    transports: string[]
    publicKeyAlgorithm: number
    publicKey?: string
    authenticatorData?: string
  }
  clientExtensionResults: Record<string, never>
  authenticatorAttachment: "platform" | "cross-platform"
}

/** An AuthenticationResponseJSON (assignable to @simplewebauthn's). */
export interface SoftAuthenticationResponseJSON {
  id: string
  rawId: string
  type: "public-key"
  response: {
    clientDataJSON: string
    authenticatorData: string
    signature: string
    userHandle?: string
  }
  clientExtensionResults: Record<string, never>
  authenticatorAttachment: "platform" | "cross-platform"
}

/** A snapshot of one credential the authenticator holds. */
export interface SoftCredentialInfo {
  /** Credential id, base64url. */
  id: string
  alg: SoftAlg
  /** COSE_Key bytes, as stored by an RP. */
  publicKey: Uint8Array<ArrayBuffer>
  /** SubjectPublicKeyInfo DER of the same key. */
  publicKeySpki: Uint8Array<ArrayBuffer>
  /** Counter stored in the authenticator (the last one it sent). */
  counter: number
  /** user.id from the creation options (base64url). */
  userHandle: string
}

/** A credential as plain JSON (private key included) for `importCredential`. */
export interface SoftCredentialExport {
  id: string
  alg: SoftAlg
  /** PKCS#8 DER, base64url. */
  privateKey: string
  counter: number
  userHandle: string
}

/** A software authenticator holding credentials for one RP ID and origin. */
export interface SoftAuthenticator {
  readonly alg: SoftAlg
  readonly rpId: string
  readonly origin: string
  /** Snapshots of the credentials it holds, oldest first. */
  readonly credentials: SoftCredentialInfo[]
  /** navigator.credentials.create(): makes and keeps a new credential, returns its RegistrationResponseJSON. */
  register(options: CreationOptionsJSON, overrides?: RegisterOverrides): SoftRegistrationResponseJSON
  /** navigator.credentials.get(): signs with the first allowed credential it holds (or its first one), returns AuthenticationResponseJSON. */
  authenticate(options: RequestOptionsJSON, overrides?: AuthenticateOverrides): SoftAuthenticationResponseJSON
  /** Sets the stored counter of a credential (base64url id). */
  setCounter(credentialId: string, counter: number): void
  /** Forgets a credential (base64url id). */
  remove(credentialId: string): void
  /** An independent copy with the same keys and counters (a cloned device: counters then diverge). */
  clone(): SoftAuthenticator
  /** One credential as JSON, private key included (defaults to the first). */
  exportCredential(credentialId?: string): SoftCredentialExport
  /** Adds an exported credential (replacing one with the same id). */
  importCredential(credential: SoftCredentialExport): void
}

// ---------------------------------------------------------------------------------------------------------------- internals

interface StoredCredential {
  id: Uint8Array<ArrayBuffer>
  alg: SoftAlg
  privateKey: KeyObject
  publicKey: KeyObject
  counter: number
  userHandle: string
}

const FLAG_UP = 0x01
const FLAG_UV = 0x04
const FLAG_BE = 0x08
const FLAG_BS = 0x10
const FLAG_AT = 0x40

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

function sha256(data: Uint8Array | string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash("sha256").update(data).digest())
}

function u32(n: number): Uint8Array {
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new RangeError(`counter ${n} does not fit in 4 bytes`)
  const out = new Uint8Array(4)
  new DataView(out.buffer).setUint32(0, n)
  return out
}

function coseKey(alg: SoftAlg, publicKey: KeyObject): Uint8Array<ArrayBuffer> {
  const jwk = publicKey.export({ format: "jwk" })
  if (alg === "ES256") {
    return encodeCbor(
      new Map<number, CborValue>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, fromB64url(jwk.x ?? "")],
        [-3, fromB64url(jwk.y ?? "")],
      ]),
    )
  }
  return encodeCbor(
    new Map<number, CborValue>([
      [1, 1], // kty: OKP
      [3, -8], // alg: EdDSA
      [-1, 6], // crv: Ed25519
      [-2, fromB64url(jwk.x ?? "")],
    ]),
  )
}

function signWith(
  cred: { alg: SoftAlg; privateKey: KeyObject },
  data: Uint8Array,
  breakIt: boolean | undefined,
): Uint8Array {
  // ES256: DER-encoded ECDSA (node's default); EdDSA: the raw 64 bytes.
  const sig = new Uint8Array(sign(cred.alg === "ES256" ? "sha256" : null, data, cred.privateKey))
  if (breakIt) sig[sig.length - 1]! ^= 0x01
  return sig
}

function clientDataJSON(
  defaults: { type: string; challenge: string; origin: string },
  o: SoftOverrides,
): Uint8Array<ArrayBuffer> {
  const data: Record<string, unknown> = {
    type: o.type ?? defaults.type,
    challenge: o.challenge ?? defaults.challenge,
    origin: o.origin ?? defaults.origin,
    crossOrigin: o.crossOrigin ?? false,
  }
  if (o.topOrigin !== undefined) data.topOrigin = o.topOrigin
  if (o.tokenBinding !== undefined) data.tokenBinding = o.tokenBinding
  Object.assign(data, o.clientData)
  return new TextEncoder().encode(JSON.stringify(data))
}

function domError(name: string, message: string): Error {
  const err = new Error(`${name}: ${message}`)
  err.name = name
  return err
}

// --------------------------------------------------------------------------------------------------------------------- API

/** Makes a software authenticator bound to one RP ID and origin. */
export function createSoftAuthenticator(options: SoftAuthenticatorOptions): SoftAuthenticator {
  return makeAuthenticator(options, [])
}

function makeAuthenticator(config: SoftAuthenticatorOptions, store: StoredCredential[]): SoftAuthenticator {
  const zero = config.signCount === "zero"
  const initialCounter = typeof config.signCount === "number" ? config.signCount : 0

  const find = (id: string): StoredCredential | undefined => store.find((c) => b64url(c.id) === id)
  const mustFind = (id: string): StoredCredential => {
    const c = find(id)
    if (!c) throw new Error(`soft authenticator holds no credential ${id}`)
    return c
  }

  const flagsFor = (o: SoftOverrides, attested: boolean): number => {
    if (o.flags !== undefined) return o.flags & 0xff
    let f = FLAG_UP
    if (o.userPresent === false) f &= ~FLAG_UP
    if (o.userVerified ?? config.userVerification ?? true) f |= FLAG_UV
    if (config.backupEligible) f |= FLAG_BE
    if (config.backedUp) f |= FLAG_BS
    if (attested) f |= FLAG_AT
    return f
  }

  const checkRpId = (requested: string | undefined, o: SoftOverrides): string => {
    if (o.rpId !== undefined) return o.rpId
    if (requested !== undefined && requested !== config.rpId) {
      throw domError("SecurityError", `options name RP ID "${requested}", authenticator is bound to "${config.rpId}"`)
    }
    return config.rpId
  }

  const info = (c: StoredCredential): SoftCredentialInfo => ({
    id: b64url(c.id),
    alg: c.alg,
    publicKey: coseKey(c.alg, c.publicKey),
    publicKeySpki: new Uint8Array(c.publicKey.export({ format: "der", type: "spki" })),
    counter: c.counter,
    userHandle: c.userHandle,
  })

  const authenticator: SoftAuthenticator = {
    alg: config.alg,
    rpId: config.rpId,
    origin: config.origin,

    get credentials() {
      return store.map(info)
    },

    register(options, o = {}) {
      const rpId = checkRpId(options.rp.id, o)
      const algId = COSE_ALG[config.alg]
      if (options.pubKeyCredParams?.length && !options.pubKeyCredParams.some((p) => p.alg === algId)) {
        throw domError("NotSupportedError", `pubKeyCredParams do not include ${config.alg} (${algId})`)
      }
      if (!o.ignoreExcludeCredentials && options.excludeCredentials?.some((d) => find(d.id))) {
        throw domError("InvalidStateError", "the authenticator holds an excluded credential")
      }

      const keys =
        config.alg === "ES256" ? generateKeyPairSync("ec", { namedCurve: "P-256" }) : generateKeyPairSync("ed25519")
      const cred: StoredCredential = {
        id: new Uint8Array(randomBytes(randomInt(16, 33))),
        alg: config.alg,
        privateKey: keys.privateKey,
        publicKey: keys.publicKey,
        counter: zero ? 0 : initialCounter,
        userHandle: options.user.id,
      }
      const shownId = o.credentialId !== undefined ? fromB64url(o.credentialId) : cred.id
      const cose = coseKey(cred.alg, cred.publicKey)
      const idLen = new Uint8Array(2)
      new DataView(idLen.buffer).setUint16(0, shownId.length)
      const authData = concat(
        sha256(rpId),
        Uint8Array.of(flagsFor(o, true)),
        u32(o.counter ?? cred.counter),
        new Uint8Array(16), // AAGUID: zeros
        idLen,
        shownId,
        cose,
      )
      const clientData = clientDataJSON(
        { type: "webauthn.create", challenge: options.challenge, origin: config.origin },
        o,
      )

      const packed = (config.attestation ?? "none") === "packed"
      const attStmt: CborValue =
        o.attStmt !== undefined
          ? o.attStmt
          : packed
            ? new Map<string, CborValue>([
                ["alg", COSE_ALG[cred.alg]],
                ["sig", signWith(cred, concat(authData, sha256(clientData)), o.breakSignature)],
              ])
            : new Map()
      const attestationObject = encodeCbor(
        new Map<string, CborValue>([
          ["fmt", o.fmt ?? (packed ? "packed" : "none")],
          ["attStmt", attStmt],
          ["authData", authData],
        ]),
      )

      store.push(cred)
      return {
        id: b64url(shownId),
        rawId: b64url(shownId),
        type: "public-key",
        response: {
          clientDataJSON: b64url(clientData),
          attestationObject: b64url(attestationObject),
          transports: [...(config.transports ?? ["internal"])],
          publicKeyAlgorithm: COSE_ALG[cred.alg],
          publicKey: b64url(cred.publicKey.export({ format: "der", type: "spki" })),
          authenticatorData: b64url(authData),
        },
        clientExtensionResults: {},
        authenticatorAttachment: config.attachment ?? "platform",
      }
    },

    authenticate(options, o = {}) {
      const rpId = checkRpId(options.rpId, o)
      let cred: StoredCredential | undefined
      if (o.useCredential !== undefined) cred = mustFind(o.useCredential)
      else if (options.allowCredentials?.length) {
        for (const d of options.allowCredentials) if ((cred = find(d.id))) break
      } else cred = store[0]
      if (!cred) throw domError("NotAllowedError", "the authenticator holds no credential the options allow")

      if (!zero) cred.counter += 1
      const authData = concat(sha256(rpId), Uint8Array.of(flagsFor(o, false)), u32(o.counter ?? cred.counter))
      const clientData = clientDataJSON(
        { type: "webauthn.get", challenge: options.challenge, origin: config.origin },
        o,
      )
      const signature = signWith(cred, concat(authData, sha256(clientData)), o.breakSignature)
      const shownId = o.credentialId ?? b64url(cred.id)
      const userHandle = o.userHandle === undefined ? cred.userHandle : o.userHandle

      return {
        id: shownId,
        rawId: shownId,
        type: "public-key",
        response: {
          clientDataJSON: b64url(clientData),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
          ...(userHandle === null ? {} : { userHandle }),
        },
        clientExtensionResults: {},
        authenticatorAttachment: config.attachment ?? "platform",
      }
    },

    setCounter(credentialId, counter) {
      u32(counter)
      mustFind(credentialId).counter = counter
    },

    remove(credentialId) {
      const i = store.indexOf(mustFind(credentialId))
      store.splice(i, 1)
    },

    clone() {
      return makeAuthenticator(
        config,
        store.map((c) => ({ ...c })),
      )
    },

    exportCredential(credentialId) {
      const c = credentialId === undefined ? store[0] : mustFind(credentialId)
      if (!c) throw new Error("soft authenticator holds no credential")
      return {
        id: b64url(c.id),
        alg: c.alg,
        privateKey: b64url(c.privateKey.export({ format: "der", type: "pkcs8" })),
        counter: c.counter,
        userHandle: c.userHandle,
      }
    },

    importCredential(e) {
      const privateKey = createPrivateKey({ key: Buffer.from(e.privateKey, "base64url"), format: "der", type: "pkcs8" })
      const existing = find(e.id)
      if (existing) store.splice(store.indexOf(existing), 1)
      store.push({
        id: fromB64url(e.id),
        alg: e.alg,
        privateKey,
        publicKey: createPublicKey(privateKey),
        counter: e.counter,
        userHandle: e.userHandle,
      })
    },
  }
  return authenticator
}
