// A Cloudflare Workers app with a database (workerd through miniflare, without nodejs_compat): Hono with
// gatehouse/hono, users and database sessions in D1 through @auth/d1-adapter as published, e-mail sign-in whose
// link is posted to a capture URL (a stand-in for a mail API), and Gatehouse's shared state in the same D1:
// `store` is D1Store, the sign-in rate limit counts in D1RateLimitStore. Driven by test/runtimes/workers-d1.test.ts.
import { D1Adapter } from "@auth/d1-adapter"
import { type AuthConfig, authHandler, initAuthConfig } from "gatehouse/hono"
import Email from "gatehouse/providers/email"
import type { SharedStore } from "gatehouse/stores"
import { D1RateLimitStore, D1Store } from "gatehouse/stores/d1"
import { Hono } from "hono"
import { BASE_PATH } from "./fixture.ts"

/** The bindings: the D1 database, and settings a real Worker would keep in wrangler.toml or as secrets. */
export interface WorkerEnv {
  DB: D1Database
  AUTH_SECRET: string
  /** The app's public auth URL: mailed links point there. */
  AUTH_URL: string
  /** Where sendVerificationRequest posts `{ identifier, url }`. */
  MAIL_CAPTURE_URL: string
  /** E-mail sign-in requests per e-mail address per window before `RateLimited`. */
  RATE_LIMIT_MAX: number
}

/** The part of the Workers D1Database type this file names (the app passes the binding on as it is). */
type D1Database = Parameters<typeof D1Store>[0] & Parameters<typeof D1Adapter>[0]

let config: AuthConfig | undefined
let store: SharedStore | undefined

const app = new Hono<{ Bindings: WorkerEnv }>()
// One config object for every request, built from the first request's bindings (the D1 binding is the same object
// for every request of the isolate).
app.use(
  "*",
  initAuthConfig((c) => {
    store ??= D1Store(c.env.DB)
    config ??= {
      basePath: BASE_PATH,
      adapter: D1Adapter(c.env.DB),
      session: { strategy: "database" },
      store,
      rateLimit: {
        store: D1RateLimitStore(c.env.DB),
        max: c.env.RATE_LIMIT_MAX,
        clientAddress: { header: "cf-connecting-ip" },
      },
      providers: [
        Email({
          sendVerificationRequest: async ({ identifier, url }) => {
            const sent = await fetch(c.env.MAIL_CAPTURE_URL, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ identifier, url }),
            })
            if (!sent.ok) throw new Error(`the mail capture answered ${sent.status}`)
          },
        }),
      ],
    }
    return config
  }),
)
app.use(`${BASE_PATH}/*`, authHandler())

// The SharedStore's four calls over HTTP, so the test can run the store conformance suite against the D1Store that
// this Worker holds (test scaffolding: an app would never expose its store).
app.post("/store/:method", async (c) => {
  const target = store ?? (store = D1Store(c.env.DB))
  const args = (await c.req.json()) as [string, string, number]
  const [key, value, ttl] = args
  switch (c.req.param("method")) {
    case "claim":
      return c.json({ result: await target.claim(key, value, ttl) })
    case "get":
      return c.json({ result: await target.get(key) })
    case "set":
      await target.set(key, value, ttl)
      return c.json({ result: null })
    case "delete":
      await target.delete(key)
      return c.json({ result: null })
    default:
      return c.json({ error: "no such method" }, 404)
  }
})
app.get("/dashboard", (c) => c.text("dashboard"))
app.get("/runtime", (c) =>
  // What the isolate has: the check that no Node.js compatibility is switched on.
  c.json({
    process: typeof (globalThis as { process?: unknown }).process,
    buffer: typeof (globalThis as { Buffer?: unknown }).Buffer,
  }),
)

export default app
