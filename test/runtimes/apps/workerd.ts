// The Cloudflare Workers app (workerd through miniflare, without nodejs_compat): a Hono app with gatehouse/hono, as
// Workers apps use @hono/auth-js. AUTH_SECRET is a binding, read by gatehouse/hono from c.env; the OP's settings
// are bindings too.
import { authHandler, initAuthConfig, verifyAuth, type AuthConfig } from "gatehouse/hono"
import { Hono } from "hono"
import { appPage, providers } from "./app.ts"
import { type AppEnv, BASE_PATH } from "./fixture.ts"

let config: AuthConfig | undefined

const app = new Hono<{ Bindings: AppEnv }>()
// One config object for every request (gatehouse/hono resolves it once), built from the first request's bindings.
app.use(
  "*",
  initAuthConfig((c) => {
    config ??= { trustHost: true, basePath: BASE_PATH, session: { strategy: "jwt" }, providers: providers(c.env) }
    return config
  }),
)
app.use(`${BASE_PATH}/*`, authHandler())
app.get("/protected", verifyAuth(), (c) => c.json({ user: c.get("authUser").session.user }))
app.all("*", (c) => appPage(c.req.raw))

export default app
