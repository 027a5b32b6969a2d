// Case S of `npm run bench`: a server-side session read through SvelteKit's `event.locals.auth()`, gatehouse/sveltekit
// beside @auth/sveltekit, in this process, on the same cookie. Each side's `handle` hook sets locals on one request
// event; an op is one `await event.locals.auth()` on it.
// The entries import SvelteKit's virtual modules; here they resolve to the test stand-ins (test/support/sveltekit/),
// through a resolve hook registered before either entry is imported (it also adds the `.js` @auth/sveltekit's own
// relative imports leave off, which vite would add).
import { register } from "node:module"
import type { Handle, RequestEvent } from "@sveltejs/kit"

const STUBS = new URL("../test/support/sveltekit/", import.meta.url)

const HOOKS = `
const map = {
  "$env/dynamic/private": ${JSON.stringify(new URL("env.ts", STUBS).href)},
  "$app/paths": ${JSON.stringify(new URL("paths.ts", STUBS).href)},
  "$app/environment": ${JSON.stringify(new URL("environment.ts", STUBS).href)},
}
export async function resolve(specifier, context, next) {
  if (Object.hasOwn(map, specifier)) return next(map[specifier], context)
  if (context.parentURL?.includes("/node_modules/@auth/sveltekit/") && specifier.startsWith(".") && !specifier.endsWith(".js"))
    return next(specifier + ".js", context)
  return next(specifier, context)
}
`

export interface KitSessionRead {
  /** One request's session read through gatehouse/sveltekit; resolves to the session's e-mail. */
  gatehouse: () => Promise<string | undefined>
  /** The same through @auth/sveltekit. */
  authjs: () => Promise<string | undefined>
}

/**
 * Builds both sides on one config shape (trustHost: true, as a production build behind a known host needs), signs a
 * user in once through @auth/sveltekit's credentials form action and returns the two session reads on that cookie.
 */
export async function kitSessionRead(options: {
  origin: string
  secret: string
  user: { id: string; name: string; email: string }
}): Promise<KitSessionRead> {
  register(`data:text/javascript,${encodeURIComponent(HOOKS)}`)
  const [{ SvelteKitAuth }, { SvelteKitAuth: AuthJsKit }, { default: Credentials }, { default: AuthJsCredentials }] =
    await Promise.all([
      import("../src/integrations/sveltekit/index.js"),
      import("@auth/sveltekit"),
      import("../src/providers/credentials.js"),
      import("@auth/core/providers/credentials"),
    ])
  const { isRedirect } = await import("@sveltejs/kit")
  const authorize = async () => options.user
  const base = { secret: options.secret, trustHost: true }
  const gatehouse = SvelteKitAuth({ ...base, providers: [Credentials({ credentials: {}, authorize })] })
  const authjs = AuthJsKit({ ...base, providers: [AuthJsCredentials({ credentials: {}, authorize })] })

  const host = new URL(options.origin).host
  const event = (request: Request): RequestEvent => {
    const written: string[] = []
    return {
      request,
      url: new URL(request.url),
      locals: {},
      params: {},
      route: { id: null },
      cookies: {
        get: () => undefined,
        getAll: () => [],
        set: (name: string, value: string) => written.push(`${name}=${value}`),
        delete: () => {},
        serialize: () => "",
      },
      getClientAddress: () => "127.0.0.1",
      setHeaders: () => {},
      written,
    } as unknown as RequestEvent
  }
  const resolve = async () => new Response("app")

  // The session cookie @auth/sveltekit mints at sign-in; both sides read it (the same secret and format).
  const signIn = event(
    new Request(`${options.origin}/signin`, {
      method: "POST",
      headers: { host, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ providerId: "credentials", redirectTo: "/" }),
    }),
  )
  await authjs.handle({
    event: signIn,
    resolve: async (e) => {
      try {
        await authjs.signIn(e as Parameters<typeof authjs.signIn>[0])
      } catch (thrown) {
        if (!isRedirect(thrown)) throw thrown
      }
      return new Response(null)
    },
  })
  const cookie = (signIn as unknown as { written: string[] }).written.find((c) => c.startsWith("authjs.session-token="))
  if (!cookie) throw new Error("bench: @auth/sveltekit's sign-in set no session cookie")

  // The event and its handle run once: an op is one `await event.locals.auth()`, the session read a load function
  // makes (each call reads the cookie again, in both libraries).
  const prepared = async (handle: Handle) => {
    const e = event(new Request(`${options.origin}/dashboard`, { headers: { host, cookie } }))
    await handle({ event: e, resolve })
    return async () => (await e.locals.auth())?.user?.email ?? undefined
  }
  return { gatehouse: await prepared(gatehouse.handle), authjs: await prepared(authjs.handle as Handle) }
}
