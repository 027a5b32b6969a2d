// gatehouse/sveltekit and gatehouse/solid-start inside a Worker's (or the Edge runtime's) fetch handler, as their
// apps run there once built: SvelteKit's server calls `handle` with a RequestEvent and appends what `event.cookies.set`
// wrote; SolidStart's catch-all route calls GET / POST with an APIEvent, and a server function calls getSession. The
// routing and the event objects here stand in for the frameworks' own servers (their builds need vite); the
// front doors, @sveltejs/kit and Gatehouse are the real modules, bundled with the runtime's conditions.
//   /auth/*        SvelteKit `handle` (base "", so its auth routes)   /kit/session    locals.auth() of a page route
//   /api/auth/*    SolidAuth GET / POST (the default prefix)          /solid/session  getSession(request)
import type { RequestEvent } from "@sveltejs/kit"
import Credentials from "gatehouse/providers/credentials"
import { type SolidAuthConfig, SolidAuth, getSession } from "gatehouse/solid-start"
import { SvelteKitAuth } from "gatehouse/sveltekit"
import { USER } from "./fixture.ts"
import { setPrivateEnv } from "./kit-modules.ts"

/** The Worker's bindings (Edge: the test's RUNTIME_ENV global). */
interface FrameworksEnv {
  [name: string]: string | undefined
  AUTH_SECRET: string
  AUTH_TRUST_HOST: string
}

function credentials() {
  return Credentials({
    credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
    authorize: (input) =>
      input.username === USER.username && input.password === USER.password
        ? { id: USER.id, name: USER.name, email: USER.email }
        : null,
  })
}

// SvelteKit: the secret and the trust rule come from `$env/dynamic/private` (the bindings), as in a deployed app.
const { handle } = SvelteKitAuth({ providers: [credentials()] })

// SolidStart reads `process.env`, which a Worker without nodejs_compat does not have: the secret is passed in. One
// config object for every request, built from the first request's bindings.
let solidConfig: SolidAuthConfig | undefined
function solidConfigOf(env: FrameworksEnv): SolidAuthConfig {
  solidConfig ??= { secret: env.AUTH_SECRET, trustHost: true, providers: [credentials()] }
  return solidConfig
}

const json = (body: unknown): Response =>
  new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } })

/** `Set-Cookie` of one `event.cookies.set` call (SvelteKit serializes with the `cookie` package, these attributes). */
function serializeCookie(name: string, value: string, options: Record<string, unknown>): string {
  let line = `${name}=${encodeURIComponent(value)}; Path=${String(options.path ?? "/")}`
  if (typeof options.maxAge === "number") line += `; Max-Age=${Math.floor(options.maxAge)}`
  if (options.expires instanceof Date) line += `; Expires=${options.expires.toUTCString()}`
  if (options.httpOnly !== false) line += "; HttpOnly"
  if (options.secure) line += "; Secure"
  const sameSite = options.sameSite ?? "lax"
  if (typeof sameSite === "string") line += `; SameSite=${sameSite[0]?.toUpperCase()}${sameSite.slice(1)}`
  return line
}

async function svelteKit(request: Request, env: FrameworksEnv): Promise<Response> {
  setPrivateEnv(env)
  const written: string[] = []
  const event = {
    request,
    url: new URL(request.url),
    locals: {},
    params: {},
    route: { id: null },
    platform: { env },
    isDataRequest: false,
    isSubRequest: false,
    cookies: {
      set: (name: string, value: string, options: Record<string, unknown>) =>
        written.push(serializeCookie(name, value, options)),
    },
    getClientAddress: () => {
      throw new Error("no client address here")
    },
    setHeaders: () => {},
    fetch,
  } as unknown as RequestEvent
  const response = await handle({
    event,
    resolve: async (resolved) =>
      resolved.url.pathname === "/kit/session"
        ? json({ session: await resolved.locals.auth() })
        : new Response("not found", { status: 404 }),
  })
  // SvelteKit adds the cookies the request's code set to whichever response goes out.
  const out = new Response(response.body, response)
  for (const line of written) out.headers.append("set-cookie", line)
  return out
}

async function solidStart(request: Request, env: FrameworksEnv): Promise<Response> {
  const config = solidConfigOf(env)
  if (new URL(request.url).pathname === "/solid/session") return json({ session: await getSession(request, config) })
  const { GET, POST } = SolidAuth(config)
  const answer = await (request.method === "POST" ? POST : GET)({ request })
  return answer ?? new Response("not found", { status: 404 })
}

export default {
  fetch(request: Request, env: FrameworksEnv): Promise<Response> {
    const { pathname } = new URL(request.url)
    return pathname.startsWith("/api/auth/") || pathname.startsWith("/solid/")
      ? solidStart(request, env)
      : svelteKit(request, env)
  },
}
