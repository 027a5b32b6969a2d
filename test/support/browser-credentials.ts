// What a browser's navigator.credentials.get() hands back, for the unit tests of the browser WebAuthn code
// (src/webauthn/webauthn.test.ts, src/client/sveltekit.test.ts): fixed bytes the tests can read back, no authenticator.

/** base64url of bytes or of a string's UTF-8. */
export const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64url")
/** A string's UTF-8 as an ArrayBuffer (what a browser's credential fields are). */
export const buf = (text: string) => new Uint8Array(Buffer.from(text)).buffer

/** An assertion (sign-in) credential for "cred-1", with `userHandle` (a discoverable passkey's user id, or null). */
export function assertionCredential(userHandle: ArrayBuffer | null = buf("user-1")) {
  return {
    id: b64("cred-1"),
    rawId: buf("cred-1"),
    type: "public-key",
    authenticatorAttachment: null,
    getClientExtensionResults: () => ({}),
    response: {
      clientDataJSON: buf('{"type":"webauthn.get"}'),
      authenticatorData: buf("auth-data"),
      signature: buf("sig"),
      userHandle,
    },
  }
}
