// Type tests (compiled by tsc, never run): gatehouse/webauthn's signIn overloads and helper shapes, as a consumer sees them.
import {
  browserSupportsConditionalUI,
  browserSupportsWebAuthn,
  configure,
  signIn,
  startAuthentication,
  startRegistration,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  type SignInResponse,
} from "gatehouse/webauthn"
import { signIn as clientSignIn } from "gatehouse/client"

/** Compiles only when A and B are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
const expectType = <T extends true>(_: T): void => undefined

declare const creation: PublicKeyCredentialCreationOptionsJSON
declare const request: PublicKeyCredentialRequestOptionsJSON

export async function passkeys(): Promise<void> {
  configure({ basePath: "/auth" })
  const answered = signIn("passkey", { email: "a@example.com", action: "register", redirect: false })
  expectType<Equal<typeof answered, Promise<SignInResponse>>>(true)
  const navigated = signIn("passkey", { conditional: true, signal: new AbortController().signal })
  expectType<Equal<typeof navigated, Promise<void>>>(true)
  // @ts-expect-error action is "register" | "authenticate"
  void signIn("passkey", { action: "login" })
  // gatehouse/client's signIn takes the same options for a passkey provider.
  void clientSignIn("passkey", { conditional: true, redirect: false })
  expectType<Equal<Awaited<ReturnType<typeof startRegistration>>, RegistrationResponseJSON>>(true)
  expectType<Equal<Awaited<ReturnType<typeof startAuthentication>>, AuthenticationResponseJSON>>(true)
  const registered: RegistrationResponseJSON = await startRegistration(creation)
  const asserted: AuthenticationResponseJSON = await startAuthentication(request, {
    conditional: await browserSupportsConditionalUI(),
  })
  const supported: boolean = browserSupportsWebAuthn()
  void [registered, asserted, supported]
}
