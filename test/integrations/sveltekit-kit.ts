// SvelteKit-shaped request events for the gatehouse/sveltekit tests: the RequestEvent fields a `handle` hook and a
// form action use (request, url, locals, cookies, getClientAddress), a cookie jar that records what `cookies.set`
// wrote, and runners that turn a hook or an action into what the browser would see (status, Location, cookies, body).
import type { Action, Handle, RequestEvent } from "@sveltejs/kit"
import { isRedirect } from "@sveltejs/kit"

export const ORIGIN = "http://kit.test"

/** One cookie a response sets: from a Set-Cookie header or from `event.cookies.set`. */
export interface SetCookie {
  name: string
  value: string
  attributes: Record<string, string | boolean>
}

function parseSetCookie(header: string): SetCookie {
  const [pair = "", ...parts] = header.split(";")
  const eq = pair.indexOf("=")
  const attributes: Record<string, string | boolean> = {}
  for (const part of parts) {
    const [key = "", ...value] = part.trim().split("=")
    attributes[key.toLowerCase()] = value.length ? value.join("=") : true
  }
  return { name: pair.slice(0, eq).trim(), value: decodeURIComponent(pair.slice(eq + 1).trim()), attributes }
}

/** What the browser would see: the status, Location, the cookies set (headers and cookies.set alike), the body. */
export interface Outcome {
  status: number
  location: string | null
  cookies: SetCookie[]
  body: string
  contentType: string | null
}

export interface KitEvent {
  event: RequestEvent
  /** What `event.cookies.set` wrote, in order. */
  written: SetCookie[]
}

/** A RequestEvent for `request` as SvelteKit's server would hand it to hooks and actions. */
export function kitEvent(request: Request): KitEvent {
  const written: SetCookie[] = []
  const url = new URL(request.url)
  const incoming = Object.fromEntries(
    (request.headers.get("cookie") ?? "")
      .split(";")
      .map((c) => c.trim())
      .filter(Boolean)
      .map((c) => [c.slice(0, c.indexOf("=")), c.slice(c.indexOf("=") + 1)]),
  )
  const cookies = {
    get: (name: string) => incoming[name],
    getAll: () => Object.entries(incoming).map(([name, value]) => ({ name, value })),
    set(name: string, value: string, options: Record<string, unknown>) {
      if (typeof options?.path !== "string") throw new Error("SvelteKit requires a path in cookies.set")
      const attributes: Record<string, string | boolean> = {}
      for (const [key, v] of Object.entries(options)) {
        if (v === undefined || v === false) continue
        attributes[key.toLowerCase()] = v instanceof Date ? v.toUTCString() : v === true ? true : String(v)
      }
      written.push({ name, value, attributes })
    },
    delete(name: string, options: { path: string }) {
      written.push({ name, value: "", attributes: { path: options.path, maxage: "0" } })
    },
    serialize: () => "",
  }
  const event = {
    request,
    url,
    locals: {},
    params: {},
    route: { id: null },
    platform: undefined,
    isDataRequest: false,
    isSubRequest: false,
    cookies,
    fetch,
    getClientAddress: () => "127.0.0.1",
    setHeaders: () => {},
  } as unknown as RequestEvent
  return { event, written }
}

/** Normalises cookie attribute names between Set-Cookie headers and cookies.set options (maxAge → max-age). */
function normalise(cookie: SetCookie): SetCookie {
  const attributes: Record<string, string | boolean> = {}
  for (const [key, value] of Object.entries(cookie.attributes)) {
    const name = key === "maxage" ? "max-age" : key === "httponly" ? "httponly" : key === "samesite" ? "samesite" : key
    attributes[name] = typeof value === "string" && name === "samesite" ? value.toLowerCase() : value
  }
  return { ...cookie, attributes }
}

async function outcomeOf(response: Response, written: SetCookie[]): Promise<Outcome> {
  const cookies = [...response.headers.getSetCookie().map(parseSetCookie), ...written].map(normalise)
  return {
    status: response.status,
    location: response.headers.get("location"),
    cookies,
    body: await response.text(),
    contentType: response.headers.get("content-type"),
  }
}

/** Runs `handle` on `request`; a request it passes on reaches an app route that answers 200 "app". */
export async function runHandle(
  handle: Handle,
  request: Request,
  app?: (event: RequestEvent) => Promise<Response>,
): Promise<Outcome & { event: RequestEvent }> {
  const { event, written } = kitEvent(request)
  const response = await handle({ event, resolve: async (e) => (app ? app(e) : new Response("app")) })
  return { ...(await outcomeOf(response, written)), event }
}

/** Runs a form action as SvelteKit does: a thrown redirect becomes that redirect, other throws propagate. */
export async function runAction(handle: Handle, action: Action, request: Request): Promise<Outcome> {
  return runHandle(handle, request, async (event) => {
    try {
      const data = await action(event as Parameters<Action>[0])
      return new Response(JSON.stringify(data ?? null), { status: 200 })
    } catch (thrown) {
      if (isRedirect(thrown))
        return new Response(null, { status: thrown.status, headers: { location: thrown.location } })
      throw thrown
    }
  })
}

/** A form POST to the app. */
export function formPost(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Request {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      host: new URL(ORIGIN).host,
      origin: ORIGIN,
      ...headers,
    },
    body: new URLSearchParams(fields),
  })
}

export function get(path: string, headers: Record<string, string> = {}): Request {
  return new Request(`${ORIGIN}${path}`, { headers: { host: new URL(ORIGIN).host, ...headers } })
}

/** The Cookie header a browser would send back after `cookies` (the last value of each name; cleared ones dropped). */
export function cookieHeader(cookies: SetCookie[], previous = ""): string {
  const jar = new Map<string, string>()
  for (const part of previous
    .split(";")
    .map((c) => c.trim())
    .filter(Boolean))
    jar.set(part.slice(0, part.indexOf("=")), part.slice(part.indexOf("=") + 1))
  for (const cookie of cookies) {
    if (cookie.value === "" || cookie.attributes["max-age"] === "0") jar.delete(cookie.name)
    else jar.set(cookie.name, cookie.value)
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ")
}

/** The cookies of an outcome without their values (tokens differ between runs): names and attributes. */
export function cookieShapes(cookies: SetCookie[]): { name: string; attributes: Record<string, string | boolean> }[] {
  return cookies
    .map(({ name, attributes }) => {
      const { expires: _expires, ...rest } = attributes
      return { name, attributes: rest }
    })
    .sort((a, b) => a.name.localeCompare(b.name))
}
