// What the runtime apps and the tests driving them share: the settings an app reads from its runtime's environment,
// the fixed credentials user and the base path. No imports, so both sides can load it (the apps inside Bun, Deno,
// the Edge runtime and workerd, the tests in Node).

/** The settings each app reads where its runtime keeps them: Bun.env, Deno.env, workerd bindings, an Edge global. */
export interface AppEnv {
  AUTH_SECRET: string
  /** The local OpenID Provider the `op` provider signs in with (test/support/oidc-op.ts). */
  OP_ISSUER: string
  OP_CLIENT_ID: string
  OP_CLIENT_SECRET: string
}

export const BASE_PATH = "/auth"

/** The one user the credentials provider accepts. */
export const USER = {
  username: "grace",
  password: "flow-matic-1955",
  id: "user-grace",
  name: "Grace Hopper",
  email: "grace@example.test",
} as const
