// The credentials provider: sign in with a username/password (or any fields) checked by your `authorize`.
import type { CredentialInput } from "../types.js"
import type { CredentialsConfig } from "./types.js"

export type { CredentialsConfig } from "./types.js"

/** Options of `Credentials()`: everything optional except `authorize`. */
export type CredentialsUserConfig<Fields extends Record<string, CredentialInput>> =
  Partial<Omit<CredentialsConfig<Fields>, "type" | "authorize">> & Pick<CredentialsConfig<Fields>, "authorize">

/** Creates a credentials provider (default id `credentials`). */
export default function Credentials<Fields extends Record<string, CredentialInput> = Record<string, CredentialInput>>(
  options: CredentialsUserConfig<Fields>,
): CredentialsConfig<Fields> {
  return {
    id: "credentials",
    name: "Credentials",
    credentials: {} as Fields,
    ...options,
    type: "credentials",
  }
}
export { Credentials }
