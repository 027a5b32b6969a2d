// The sign-in page's form-field rules (autocomplete, labels, declarations read as field specs), for the page and for the
// page sections of the sign-in kinds (flows/kinds/; the section interface is SignInPageSection in pipeline-types.ts).
import type { FieldSpec } from "../pipeline-types.js"
import type { PageLocale } from "./locales/index.js"

/** A form-field attribute as page text: only a string is used; anything else (a signal, a number) is the default. */
export function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" ? value : fallback
}

/** The fields of a declaration (an object of field specs), in declaration order; anything else has none. */
export function fieldsOf(value: unknown): [string, FieldSpec][] {
  if (typeof value !== "object" || value === null) return []
  return Object.entries(value).map(([name, f]): [string, FieldSpec] => [
    name,
    typeof f === "object" && f !== null ? (f as FieldSpec) : {},
  ])
}

/** The field's own `autocomplete`, else one from its type or name, so password managers fill the right thing. */
export function autocompleteFor(name: string, field: FieldSpec): string | undefined {
  if (typeof field.autocomplete === "string") return field.autocomplete
  const inputType = stringOr(field.type, "text").toLowerCase()
  const lower = name.toLowerCase()
  if (inputType === "password" || lower === "password") return "current-password"
  if (inputType === "email" || lower === "email") return "email"
  if (/^(?:user(?:name)?|login|user_?id)$/.test(lower)) return "username"
  return undefined
}

export const isPasswordType = (f: FieldSpec) => stringOr(f.type, "text").toLowerCase() === "password"

/** True for a field label left at Auth.js's default "Email" (or unset) on a field named `email`. */
function isDefaultEmailLabel(name: string, f: FieldSpec): boolean {
  return name === "email" && (f.label === undefined || f.label === "Email")
}

/**
 * The label of a field: a built-in form's default `email` label comes from the locale (in a passkey form its own
 * text, so it never reads like the e-mail provider's field), any other as configured.
 */
export function fieldLabel(name: string, f: FieldSpec, locale: PageLocale, passkey = false): string {
  if (isDefaultEmailLabel(name, f)) return passkey ? locale.signIn.passkeyEmailLabel : locale.signIn.emailLabel
  return stringOr(f.label, name)
}
