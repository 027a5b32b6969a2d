// Field reads on a request body that request/parse.ts already parsed: one string field, and the check for a form
// field sent twice. Typed by the fields they read, so any layer may use them.

/**
 * The first of `names` a form body carries more than once, or undefined (docs/security.md HN-01). The body keeps
 * the first value; a framework in front (Hono's `parseBody`: the last) may have checked another, so the caller refuses.
 * JSON bodies never repeat a key here: JSON.parse keeps one, the last, as every JavaScript reader does.
 */
export function repeatedFormField(
  req: { readonly repeatedFields: readonly string[] },
  names: ReadonlySet<string>,
): string | undefined {
  for (const name of req.repeatedFields) if (names.has(name)) return name
  return undefined
}

/** A string field of the body, or undefined (non-strings are ignored). */
export function bodyString(req: { readonly body: Readonly<Record<string, unknown>> }, key: string): string | undefined {
  const value = req.body[key]
  return typeof value === "string" ? value : undefined
}
