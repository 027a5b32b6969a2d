// The mock OP (test/support/mock-op.ts) as an OIDC provider config, without vitest: shared by the OAuth tests, the
// scale-out app processes and the stress harness.
import type { OAuthConfigBase } from "../../src/providers/types.js"

/** What a provider config needs to know of a running mock OP (a child process may get it as JSON). */
export interface MockOpEndpoint {
  issuer: string
  clientId: string
  clientSecret: string
  tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none"
}

/** The mock OP as an OIDC provider with every check (pkce, state, nonce) and a 3 s timeout; `over` replaces fields. */
export function mockOpProvider(op: MockOpEndpoint, over: Partial<OAuthConfigBase> = {}): OAuthConfigBase {
  return {
    id: "mock",
    name: "Mock OP",
    type: "oidc",
    issuer: op.issuer,
    clientId: op.clientId,
    clientSecret: op.clientSecret,
    client: { token_endpoint_auth_method: op.tokenEndpointAuthMethod ?? "client_secret_basic" },
    checks: ["pkce", "state", "nonce"],
    timeout: 3000,
    ...over,
  }
}
