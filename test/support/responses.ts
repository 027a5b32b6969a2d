// Checks of Gatehouse's error answers shared by the security tests: the API error body, the MissingCSRF
// answer, the Allow header; and the body of a response read without consuming it.
import { expect } from "vitest"
import { expectNoSessionCookie } from "./cookies.js"

export async function bodyText(res: Response): Promise<string> {
  return await res.clone().text()
}

/** API error body `{"error": type}` with the given status (differences.md). */
export async function expectJsonError(res: Response, status: number, type: string): Promise<void> {
  expect(res.status).toBe(status)
  expect(res.headers.get("content-type") ?? "").toMatch(/^application\/json/)
  const body = (await res.clone().json()) as { error?: unknown }
  expect(body).toMatchObject({ error: type })
}

/**
 * The configuration-error answer of every non-page route: 500 with exactly Auth.js's body `{"message": …}`
 * (docs/wire-format.md §1.2).
 */
export async function expectConfigurationError(res: Response): Promise<void> {
  expect(res.status).toBe(500)
  expect(res.headers.get("content-type") ?? "").toMatch(/^application\/json/)
  expect(await res.clone().json()).toEqual({
    message: "There was a problem with the server configuration. Check the server logs for more information.",
  })
}

/**
 * MissingCSRF: 302 to `<origin>/auth/signin?error=MissingCSRF` (docs/wire-format.md §5), or 403 JSON
 * `{"error":"MissingCSRF"}`.
 */
export async function expectMissingCsrf(res: Response): Promise<void> {
  if (res.status === 403) {
    await expectJsonError(res, 403, "MissingCSRF")
  } else {
    expect(res.status).toBe(302)
    const loc = new URL(res.headers.get("location") ?? "")
    expect(loc.pathname).toBe("/auth/signin")
    expect(loc.searchParams.get("error")).toBe("MissingCSRF")
  }
  expectNoSessionCookie(res)
}

/** The `Allow` header as an upper-cased, sorted list. */
export function allowOf(res: Response): string[] {
  return (res.headers.get("allow") ?? "")
    .split(",")
    .map((m) => m.trim().toUpperCase())
    .filter(Boolean)
    .sort()
}
