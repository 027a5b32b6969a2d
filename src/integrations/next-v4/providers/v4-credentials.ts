// next-auth 4's credentials provider on Gatehouse's: v4's `authorize(credentials, req)` gets its `req`
// ({ query, body, headers, method }, next-auth 4's RequestInternal) instead of Gatehouse's web Request.
import { declaredParameters } from "../../../lib/parameters.js"
import type { CredentialsConfig } from "../../../providers/types.js"
import type { Awaitable, CredentialInput, User } from "../../../records.js"
import { markTranslated } from "./marks.js"

/** The request next-auth 4 passed as `authorize`'s second argument. */
interface V4CredentialsRequest {
  /** The callback URL's query parameters. */
  query: Record<string, string>
  /** The POST body as `authorize` got it as `credentials` (the whole form under gatehouse/v4). */
  body: Record<string, unknown>
  /** The request headers, by lower-case name. */
  headers: Record<string, string>
  method: string
}

/** next-auth 4's `authorize`. */
type V4Authorize<C extends Record<string, CredentialInput>> = (
  credentials: Record<keyof C, string> | undefined,
  req: V4CredentialsRequest,
) => Awaitable<User | null>

/** What next-auth 4's `CredentialsProvider()` takes: `credentials` and `authorize` are required. */
export type V4CredentialsUserConfig<C extends Record<string, CredentialInput>> = Partial<
  Omit<CredentialsConfig<C>, "type" | "authorize" | "credentials">
> & { credentials: C; authorize: V4Authorize<C> }

/**
 * v4's `req` from what Gatehouse passed: a web Request outside gatehouse/v4; under it (next-auth 4's wire format)
 * the credentials flow already passes v4's `{ query, body, headers, method }`, handed on as it is.
 */
function requestOf(
  credentials: Record<string, unknown>,
  request: Request | V4CredentialsRequest,
): V4CredentialsRequest {
  if (!(request instanceof Request)) return request
  return {
    query: Object.fromEntries(new URL(request.url).searchParams),
    body: { ...credentials },
    headers: Object.fromEntries(request.headers),
    method: request.method,
  }
}

/** Gatehouse's `authorize` for a v4 one: a Request is built only when the v4 function declares a second parameter. */
function fromV4Authorize(authorize: (...args: never[]) => unknown): CredentialsConfig["authorize"] {
  const call = authorize as unknown as (credentials: unknown, req?: V4CredentialsRequest) => Awaitable<User | null>
  if (declaredParameters(authorize) < 2) return (credentials) => call(credentials)
  return (credentials, request) => call(credentials, requestOf(credentials, request))
}

/** A credentials provider object of a v4 config (its `options` merged, as next-auth 4 did) with a v4 `authorize`. */
export function v4CredentialsConfig(v4: Record<string, unknown>): CredentialsConfig {
  const { options, ...rest } = v4
  const merged = { ...rest, ...(typeof options === "object" && options !== null ? options : {}) }
  const authorize = merged.authorize
  return {
    ...(merged as unknown as CredentialsConfig),
    ...(typeof authorize === "function" ? { authorize: fromV4Authorize(authorize as () => unknown) } : {}),
  }
}

/** The default export of gatehouse/v4/providers/credentials: the catalogue's Credentials with v4's `authorize`. */
export function v4Credentials(catalogue: (options?: Partial<Omit<CredentialsConfig, "type">>) => CredentialsConfig) {
  return <C extends Record<string, CredentialInput> = Record<string, CredentialInput>>(
    options: V4CredentialsUserConfig<C>,
  ): CredentialsConfig<C> => {
    const { authorize, ...rest } = options
    const provider = catalogue({
      ...(rest as Partial<CredentialsConfig>),
      ...(typeof authorize === "function" ? { authorize: fromV4Authorize(authorize) } : {}),
    })
    return markTranslated(provider) as CredentialsConfig<C>
  }
}
