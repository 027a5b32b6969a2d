// The app every runtime serves: a credentials provider with one fixed user, an OpenID Connect provider at the tests'
// local OP, JWT sessions, trustHost (the tests reach it through a virtual public origin, named by X-Forwarded-Host).
// Imports go through the package name, so the runtime (or esbuild with its conditions) resolves package.json
// "exports" and "imports" (#crypto) as an installed copy would.
import type { AuthConfig } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"
import { type AppEnv, BASE_PATH, USER } from "./fixture.ts"

export function providers(env: AppEnv): NonNullable<AuthConfig["providers"]> {
  return [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize: (input) =>
        input.username === USER.username && input.password === USER.password
          ? { id: USER.id, name: USER.name, email: USER.email }
          : null,
    }),
    {
      id: "op",
      name: "Local OP",
      type: "oidc",
      issuer: env.OP_ISSUER,
      clientId: env.OP_CLIENT_ID,
      clientSecret: env.OP_CLIENT_SECRET,
      authorization: { params: { scope: "openid email profile" } },
    },
  ]
}

/** The config of `Auth(request, config)`: the secret comes from the environment, as an app would read it. */
export function authConfig(env: AppEnv): AuthConfig {
  return {
    secret: env.AUTH_SECRET,
    trustHost: true,
    basePath: BASE_PATH,
    session: { strategy: "jwt" },
    providers: providers(env),
  }
}

/** A page outside the auth routes: where a sign-in lands (the callbackUrl). */
export function appPage(request: Request): Response {
  return new Response(`app page ${new URL(request.url).pathname}`, { headers: { "content-type": "text/plain" } })
}
