// base64url (RFC 4648 §5, no padding) ⇄ ArrayBuffer: how WebAuthn's JSON forms carry binary fields.
// @see https://www.rfc-editor.org/rfc/rfc4648#section-5

/** A base64url string without padding, as @simplewebauthn/server's JSON types carry bytes. */
export type Base64URLString = string

/** Encodes bytes as base64url without padding. */
export function bufferToBase64URL(bytes: ArrayBuffer | ArrayBufferView): Base64URLString {
  const view =
    bytes instanceof ArrayBuffer
      ? new Uint8Array(bytes)
      : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let binary = ""
  // Chunked so a large buffer never hits the argument-count limit of fromCharCode.
  for (let i = 0; i < view.length; i += 0x8000) binary += String.fromCharCode(...view.subarray(i, i + 0x8000))
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

/** Decodes base64url (padding optional) to a fresh ArrayBuffer; throws a TypeError naming the bad input otherwise. */
export function base64URLToBuffer(value: Base64URLString): ArrayBuffer {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(value) || value.replace(/=+$/, "").length % 4 === 1) {
    throw new TypeError(
      `not a base64url string: ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`,
    )
  }
  const base64 = value.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/")
  const binary = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), "="))
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes.buffer
}
