// Where the browser helpers find the auth routes (the basePath shared by gatehouse/client and gatehouse/react),
// and the small fetch helpers every client call goes through.
import { AuthError } from "../errors.js"
import { basePathProblem, httpUrl } from "./url-rules.js"

/** The browser helpers' settings; `basePath` must match the server's (`AuthConfig.basePath`). */
export interface ClientConfig {
  /** Path of the auth routes on this origin, e.g. `/api/auth` (the default, as next-auth/react) or `/auth`. */
  basePath: string
}

const DEFAULT_BASE_PATH = "/api/auth"

let current: ClientConfig = Object.freeze({ basePath: DEFAULT_BASE_PATH })

/** The basePath without surrounding spaces and trailing slashes ("/" becomes ""); throws unless it is a path here. */
function normalizeBasePath(basePath: unknown): string {
  const trimmed = typeof basePath === "string" ? basePath.trim() : basePath
  const problem = basePathProblem(trimmed)
  if (problem !== undefined || typeof trimmed !== "string") {
    throw new AuthError(
      `configure({ basePath: ${typeof basePath === "string" ? JSON.stringify(basePath) : typeof basePath} }): the basePath must be a path on this origin starting with ` +
        `a single "/" (e.g. "/api/auth"), the same as the server's AuthConfig.basePath; ${problem ?? "it is not a string"}. ` +
        `The client only talks to the page's own origin, so credentials are never posted elsewhere.`,
    )
  }
  return trimmed.replace(/\/+$/, "")
}

/**
 * Sets where the browser helpers send their requests, for every later call in this page. The default basePath is
 * `/api/auth` (next-auth/react's); a Gatehouse server without `basePath` in its config answers under `/auth`.
 */
export function configure(options: Partial<ClientConfig>): ClientConfig {
  if (options.basePath !== undefined)
    current = Object.freeze({ ...current, basePath: normalizeBasePath(options.basePath) })
  return current
}

/** The settings in effect. */
export function clientConfig(): ClientConfig {
  return current
}

/** The URL of an auth route, e.g. `authUrl("session")` → `/api/auth/session`. */
export function authUrl(route: string): string {
  return `${current.basePath}/${route}`
}

/** Reports a failed client request without throwing (the helpers that read state answer null instead). */
export function reportClientError(what: string, cause: unknown): void {
  console.error(`[gatehouse][client] ${what}:`, cause)
}

/** The JSON body of a response, or undefined when it is not JSON. */
export async function readJson(res: Response): Promise<unknown> {
  try {
    return (await res.json()) as unknown
  } catch {
    return undefined
  }
}

/**
 * Marks signIn's options or signOut's params (an own symbol property, so never a form field nor a public type) for a
 * front door whose server takes no CSRF token: gatehouse/sveltekit/client, as @auth/sveltekit/client, since SvelteKit
 * checks the Origin of form POSTs itself and `/auth/csrf` answers 404 there. The POST then goes without `csrfToken`
 * and `/csrf` is not fetched; every other caller keeps the double-submit token.
 */
const OMIT_CSRF_TOKEN = Symbol("gatehouse.omitCsrfToken")

/** A copy of `options` with the mark above. */
export function withoutCsrfToken<T extends object>(options: T | undefined): T {
  return { ...options, [OMIT_CSRF_TOKEN]: true } as T
}

/** Whether `options` carries the mark (set by withoutCsrfToken). */
export function omitsCsrfToken(options: object | undefined): boolean {
  return options !== undefined && (options as Record<symbol, unknown>)[OMIT_CSRF_TOKEN] === true
}

/** A plain object (JSON object), narrowed from unknown. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

/**
 * Navigates the page to an http(s) URL; anything else (`javascript:`, `data:`, …) is refused and logged, whoever
 * chose it. A URL that only changes the hash is reloaded, so the new page state is read; a URL with a hash on another
 * page is not (a reload there would cancel the navigation).
 */
export function navigate(url: string): void {
  const next = httpUrl(url, window.location.href)
  if (!next) {
    reportClientError(
      "navigate",
      new Error(`refused to navigate to a URL that is not http(s): ${JSON.stringify(url.slice(0, 100))}`),
    )
    return
  }
  const hashOnly = next.hash !== "" && withoutHash(next.href) === withoutHash(window.location.href)
  window.location.href = next.href
  if (hashOnly) window.location.reload()
}

function withoutHash(href: string): string {
  const at = href.indexOf("#")
  return at === -1 ? href : href.slice(0, at)
}
