// NextAuth of gatehouse/v4 (next-auth 4's default export): one function that is a pages-router API route
// `(req, res)` and an app-router route handler `(request, { params })`, or handles one request itself when called
// with it. The pages-router request is read natively (node-io.ts, the body Next already parsed re-encoded); the
// app-router one as a web Request. The action and provider come from the catch-all segments (`[...nextauth]`), as in
// next-auth 4, so the route's own path does not matter. A POST with `json=true` (next-auth 4's client) gets the
// redirect as `{ url }` JSON with the answer's status: handle() answers so under next-auth 4's wire format.
import type { IncomingMessage, ServerResponse } from "node:http"
import type { NextRequest } from "next/server.js"
import { utf8 } from "#crypto"
import { handle } from "../../pipeline.js"
import type { ResolvedConfig } from "../../pipeline-types.js"
import { webInput } from "../../request/input.js"
import { toResponse } from "../../response/build.js"
import { nodeInput, readNodeBody, writeNodeResponse } from "../node-io.js"
import { v4Resolved } from "./config.js"
import type { AuthOptions, Awaitable } from "./types.js"

/** A pages-router API request as Next.js hands it over: the node request with its parsed query, body and cookies. */
export type NextApiRequest = IncomingMessage & {
  query: Partial<Record<string, string | string[]>>
  body?: unknown
  cookies: Partial<Record<string, string>>
}

/** A pages-router API response (the node response; Next's helpers are not needed). */
export type NextApiResponse = ServerResponse

/** The second argument of an app-router route handler of `app/api/auth/[...nextauth]/route.ts`. */
export interface RouteHandlerContext {
  params: Awaitable<{ nextauth: string[] }>
}

/** The path the pipeline parses: basePath plus the catch-all segments, else the request's own path. */
function actionPath(basePath: string, segments: unknown): string | undefined {
  const list = typeof segments === "string" ? [segments] : segments
  if (!Array.isArray(list) || list.length === 0) return undefined
  const base = basePath === "/" ? "" : basePath
  return `${base}/${list.map((s) => encodeURIComponent(String(s))).join("/")}`
}

function contentTypeOf(value: string | null | undefined): string {
  return (value ?? "").split(";", 1)[0]!.trim().toLowerCase()
}

/** Appends a parsed form field as `application/x-www-form-urlencoded` carries it (Next's parser makes arrays of repeats). */
function appendField(form: URLSearchParams, key: string, value: unknown): void {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    form.append(key, String(value))
  else if (Array.isArray(value)) for (const item of value) appendField(form, key, item)
}

/** A body Next's API body parser already read, encoded back as its content type says (JSON, form, text). */
function encodeParsedBody(body: unknown, type: string): Uint8Array {
  if (body instanceof Uint8Array) return body
  if (typeof body === "string") return utf8(body)
  if (type === "application/x-www-form-urlencoded") {
    const form = new URLSearchParams()
    if (body !== null && typeof body === "object")
      for (const [key, value] of Object.entries(body)) appendField(form, key, value)
    return utf8(form.toString())
  }
  if (type === "application/json") return utf8(JSON.stringify(body) ?? "")
  return new Uint8Array(0)
}

/** The body reader of a pages-router request: Next's parsed `req.body` when it ran, else the stream (bodyParser off). */
function pagesBodyReader(req: NextApiRequest, res: ServerResponse): (limit: number) => Promise<Buffer | undefined> {
  return async (limit) => {
    if (req.body === undefined) return readNodeBody(req, res, limit)
    const bytes = encodeParsedBody(req.body, contentTypeOf(req.headers["content-type"]))
    // A pages-router route runs on Node.js only: node-io's reader hands the pipeline Buffers.
    return bytes.byteLength > limit ? undefined : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  }
}

async function pagesRouterHandler(req: NextApiRequest, res: NextApiResponse, options: AuthOptions): Promise<void> {
  try {
    const resolved = v4Resolved(options)
    const url = req.url ?? "/"
    const query = url.indexOf("?")
    const path = actionPath(resolved.basePath, req.query?.nextauth)
    const target = path === undefined ? url : `${path}${query === -1 ? "" : url.slice(query)}`
    const input = nodeInput(req, { target, readBody: pagesBodyReader(req, res), res })
    writeNodeResponse(res, await handle(input, resolved), input)
  } catch {
    // Not an auth answer (handle() answers those): the response could not be written, or a broken `req`.
    if (res.headersSent) res.destroy()
    else res.writeHead(500, { "content-type": "application/json" }).end('{"error":"InternalError"}')
  }
}

async function appRouterHandler(
  request: NextRequest | Request,
  context: RouteHandlerContext,
  options: AuthOptions,
): Promise<Response> {
  const resolved: ResolvedConfig = v4Resolved(options)
  const path = actionPath(resolved.basePath, (await context.params)?.nextauth)
  const requestUrl = new URL(request.url)
  const url = path === undefined ? requestUrl : new URL(`${path}${requestUrl.search}`, requestUrl.origin)
  const internal = await handle(webInput(request, { url }), resolved)
  try {
    return toResponse(internal, request.headers.has("x-auth-return-redirect"), request.method === "HEAD")
  } catch (failure) {
    // A header value the Response constructor refuses (e.g. a configured page URL with a newline).
    resolved.logger.error(failure instanceof Error ? failure : new Error(String(failure)))
    return new Response(null, { status: 500 })
  }
}

/**
 * What NextAuth returns: `any`, as next-auth 4 declares it, so `export { handler as GET, handler as POST }` and
 * `export default NextAuth(authOptions)` pass Next's route-export checks whatever form is used.
 */
// biome-ignore lint/suspicious/noExplicitAny: next-auth 4's declared result type; apps rely on it
export type NextAuthResult = any

function isRouteContext(value: unknown): value is RouteHandlerContext {
  return (
    typeof value === "object" && value !== null && "params" in value && (value as { params?: unknown }).params != null
  )
}

/** next-auth 4's NextAuth: `NextAuth(options)` makes the route handler; the other forms handle one request. */
export function NextAuth(options: AuthOptions): NextAuthResult
/** Pages router, advanced initialisation: handles this request with these options. */
export function NextAuth(req: NextApiRequest, res: NextApiResponse, options: AuthOptions): NextAuthResult
/** App router, advanced initialisation: handles this request with these options. */
export function NextAuth(req: NextRequest, res: RouteHandlerContext, options: AuthOptions): NextAuthResult
export function NextAuth(...args: unknown[]): NextAuthResult {
  if (args.length === 1) {
    const options = args[0] as AuthOptions
    return (req: NextApiRequest | NextRequest, res: NextApiResponse | RouteHandlerContext) =>
      isRouteContext(res)
        ? appRouterHandler(req as NextRequest, res, options)
        : pagesRouterHandler(req as NextApiRequest, res as NextApiResponse, options)
  }
  const [req, res, options] = args as [unknown, unknown, AuthOptions]
  return isRouteContext(res)
    ? appRouterHandler(req as NextRequest, res, options)
    : pagesRouterHandler(req as NextApiRequest, res as NextApiResponse, options)
}
