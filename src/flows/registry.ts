// The sign-in kind registry: each provider `type` and the kind that serves it (flows/kinds/). Config resolution refuses
// a type that is not here, and every stage reads a provider's kind through ResolvedConfig.kindOf.
import type { ResolvedProvider, SignInKind } from "../pipeline-types.js"
import type { ProviderType } from "../providers/types.js"
import { credentialsKind } from "./kinds/credentials.js"
import { emailKind } from "./kinds/email.js"
import { oauthKind } from "./kinds/oauth.js"
import { webAuthnKind } from "./kinds/webauthn.js"

/**
 * Every provider type and its kind. A new kind is its file in kinds/ and one line here (plus its config shape in
 * providers/types.ts). The order is the order of the config checks across kinds (config/resolve.ts).
 */
export const signInKinds = {
  credentials: credentialsKind,
  email: emailKind,
  oauth: oauthKind,
  oidc: oauthKind,
  webauthn: webAuthnKind,
} as const satisfies Record<ProviderType, SignInKind>

// A Map, never a property read: a type such as `__proto__` or `constructor` must find nothing.
const byType: ReadonlyMap<string, SignInKind> = new Map(Object.entries(signInKinds))

/** Each kind once, in registry order. */
export const allKinds: readonly SignInKind[] = [...new Set(byType.values())]

/** The kind serving a provider type, or undefined for a type no kind serves. */
export function kindFor(type: unknown): SignInKind | undefined {
  return typeof type === "string" ? byType.get(type) : undefined
}

/** The kind of a resolved provider: config resolution let only types with a kind through. */
export function kindOf(provider: ResolvedProvider): SignInKind {
  return byType.get(provider.type) as SignInKind
}
