// How the browser client starts a sign-in, by the provider `type` that /providers lists. The client cannot import the
// server's sign-in kinds (flows/kinds/), so their browser-facing part is restated here; test/flows/registry.test.ts
// checks the two agree for every type.

/**
 * "ceremony": the WebAuthn ceremony (webauthn/sign-in.ts), which posts its answer to /callback/<id>; "callback": a
 * form POST to /callback/<id>, whose answer sets the session (credentials); "signin": a form POST to /signin/<id>,
 * which sends the browser on (OAuth, e-mail, and any type this client does not know).
 */
export type SignInStart = "ceremony" | "callback" | "signin"

// A Map, never a property read: a type such as `__proto__` must find nothing.
const starts: ReadonlyMap<string, SignInStart> = new Map([
  ["credentials", "callback"],
  ["webauthn", "ceremony"],
])

/** How a sign-in with a provider of this type starts. */
export function signInStart(type: string): SignInStart {
  return starts.get(type) ?? "signin"
}
