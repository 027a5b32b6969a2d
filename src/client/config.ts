// Where the browser helpers find the auth routes (the basePath shared by gatehouse/client and gatehouse/react),
// and the small fetch helpers every client call goes through.
import { AuthError } from "../errors.js"

/** The browser helpers' settings; `basePath` must match the server's (`AuthConfig.basePath`). */
export interface ClientConfig {
  /** Path of the auth routes on this origin, e.g. `/api/auth` (the default, as next-auth/react) or `/auth`. */
  basePath: string
}

const DEFAULT_BASE_PATH = "/api/auth"

let current: ClientConfig = Object.freeze({ basePath: DEFAULT_BASE_PATH })

function normaliseBasePath(basePath: string): string {
  const trimmed = basePath.trim().replace(/\/+$/, "")
  if (trimmed === "" && basePath.trim().startsWith("/")) return ""
  if (!trimmed.startsWith("/") && !/^https?:\/\//i.test(trimmed)) {
    throw new AuthError(
      `configure({ basePath: ${JSON.stringify(basePath)} }): the basePath must be a path starting with "/" ` +
        `(e.g. "/api/auth"), the same as the server's AuthConfig.basePath.`,
    )
  }
  return trimmed
}

/**
 * Sets where the browser helpers send their requests, for every later call in this page. The default basePath is
 * `/api/auth` (next-auth/react's); a Gatehouse server without `basePath` in its config answers under `/auth`.
 */
export function configure(options: Partial<ClientConfig>): ClientConfig {
  if (options.basePath !== undefined) current = Object.freeze({ ...current, basePath: normaliseBasePath(options.basePath) })
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

/** A plain object (JSON object), narrowed from unknown. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

/** Navigates the page; a URL that only changes the hash is reloaded, so the new page state is read. */
export function navigate(url: string): void {
  window.location.href = url
  if (url.includes("#")) window.location.reload()
}
