// A Next.js middleware as the Edge runtime runs it, on gatehouse/v4 as an app imports it: the default export of
// gatehouse/v4/middleware on /protected/*, a wrapped middleware on /wrapped/* that answers req.nextauth.token, and
// /mint, a session token encoded by gatehouse/v4/jwt inside the runtime. A fetch-event handler, bundled with the
// edge-light conditions; the test defines V4_SECRET before this code runs (NEXTAUTH_SECRET: there is no process).
import middleware, { type NextRequestWithAuth, withAuth } from "gatehouse/v4/middleware"
import { encode } from "gatehouse/v4/jwt"

interface FetchEventLike {
  request: Request
  respondWith(response: Promise<Response>): void
}

const scope = globalThis as unknown as {
  V4_SECRET: string
  addEventListener(type: "fetch", listener: (event: FetchEventLike) => void): void
}

const secret = scope.V4_SECRET

const wrapped = withAuth(
  (req: NextRequestWithAuth) =>
    new Response(JSON.stringify({ token: req.nextauth.token }), { headers: { "content-type": "application/json" } }),
  { secret },
)

async function handle(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url)
  if (pathname === "/mint") return new Response(await encode({ token: { sub: "edge-user", name: "Edge" }, secret }))
  if (pathname === "/runtime")
    return Response.json({ process: typeof process, buffer: typeof (globalThis as { Buffer?: unknown }).Buffer })
  const result = pathname.startsWith("/wrapped")
    ? await wrapped(request as NextRequestWithAuth, {} as never)
    : await middleware(request as NextRequestWithAuth, { secret })
  // Nothing returned: Next would go on to the page.
  return result ?? new Response("page", { headers: { "x-middleware": "next" } })
}

scope.addEventListener("fetch", (event) => event.respondWith(handle(event.request)))
