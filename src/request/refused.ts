// Requests a front door could not turn into a web Request: it hands Auth() a placeholder carrying the reason,
// so bad input gets a 4xx answer instead of an exception escaping a server's request handler.
import type { AuthError } from "../errors.js"

const refusals = new WeakMap<Request, AuthError>()

/** A placeholder Request that `Auth()` answers with `error` (405 for a refused method, else 400 or its status). */
export function refusedRequest(error: AuthError): Request {
  const placeholder = new Request("http://localhost/")
  refusals.set(placeholder, error)
  return placeholder
}

/** The reason a front door refused this request, if it did. */
export function refusalOf(request: Request): AuthError | undefined {
  return refusals.get(request)
}
