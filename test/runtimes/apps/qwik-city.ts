// gatehouse/qwik in Qwik City's own request handler, as its Cloudflare Pages and Vercel Edge adapters serve a built
// app: the plugin's onRequest (QwikAuthQrl, the form the optimizer makes of `QwikAuth$(() => config)`) runs before
// every route, and an endpoint route answers the session the plugin put in sharedMap (what `useSession` returns). The
// route plan stands in for the one Qwik City's vite plugin generates; the handler and the adapters are the real ones.
import { inlinedQrl } from "@builder.io/qwik"
import type { RequestEvent } from "@builder.io/qwik-city"
import { QwikAuthQrl } from "gatehouse/qwik"
import Credentials from "gatehouse/providers/credentials"
import { USER } from "./fixture.ts"

// AUTH_SECRET and AUTH_TRUST_HOST come from Qwik's `env.get` (the Worker's bindings, Vercel Edge's process.env).
const config = {
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize: (input) =>
        input.username === USER.username && input.password === USER.password
          ? { id: USER.id, name: USER.name, email: USER.email }
          : null,
    }),
  ],
}

const { onRequest } = QwikAuthQrl(inlinedQrl(() => config, "frameworks_test_qwik_auth_config"))

/** Qwik City's route plan: the auth plugin, and one endpoint (src/routes/qwik/session/index.ts). */
export const qwikCityPlan = {
  routes: [
    [
      "qwik/session/",
      [
        () => ({
          onGet: (event: RequestEvent) => event.json(200, { session: event.sharedMap.get("session") ?? null }),
        }),
      ],
    ],
  ],
  serverPlugins: [{ onRequest }],
  trailingSlash: false,
  basePathname: "/",
  cacheModules: true,
}

/** No page routes here, so nothing to render. */
export function render(): never {
  throw new Error("no page routes in this app")
}
