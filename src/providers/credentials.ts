// The credentials provider: sign in with a username/password (or any fields) checked by your `authorize`.
import type { CredentialInput } from "../types.js"
import type { CredentialsConfig } from "./types.js"

export type { CredentialInput, CredentialsConfig, CredentialsProviderId } from "./types.js"

/** Options of `Credentials()`: everything optional, as in Auth.js. */
export type CredentialsUserConfig<Fields extends Record<string, CredentialInput>> = Partial<
  Omit<CredentialsConfig<Fields>, "type">
>

/** Until an `authorize` is given, every sign-in fails with CredentialsSignin (Auth.js's default). */
const refuseAll = (): null => null

/**
 * Creates a credentials provider (default id `credentials`). `Credentials({})`, or `Credentials` passed uncalled,
 * is a valid provider whose sign-ins all fail until you give `authorize`.
 */
export default function Credentials<Fields extends Record<string, CredentialInput> = Record<string, CredentialInput>>(
  options: CredentialsUserConfig<Fields> = {},
): CredentialsConfig<Fields> {
  return {
    id: "credentials",
    name: "Credentials",
    credentials: {} as Fields,
    ...options,
    authorize: options.authorize ?? refuseAll,
    type: "credentials",
  }
}
export { Credentials }
