// The page locales and the choice between them: config `locale`, else the request's Accept-Language, else English.
import { de } from "./de.js"
import { en } from "./en.js"
import type { PageLocale } from "./types.js"

export { de, en }
export type { ErrorPageCode, PageLocale, PageMessage, SignInErrorCode } from "./types.js"

/** Every shipped locale by its lower-case language tag. Adding a language: one file in this folder and one line here. */
export const PAGE_LOCALES: Readonly<Record<string, PageLocale>> = Object.freeze({ en, de })

/** The locale for one tag: exact (`de`), else its primary language (`de-AT` → `de`); undefined when none is shipped. */
export function findLocale(tag: string): PageLocale | undefined {
  const lower = tag.trim().toLowerCase()
  if (!lower) return undefined
  if (Object.hasOwn(PAGE_LOCALES, lower)) return PAGE_LOCALES[lower]
  const primary = lower.split("-")[0] as string
  return Object.hasOwn(PAGE_LOCALES, primary) ? PAGE_LOCALES[primary] : undefined
}

/** At most this much of an Accept-Language header is read (browsers send a few dozen bytes). */
const MAX_ACCEPT_LANGUAGE = 512

/**
 * The best shipped locale for an Accept-Language header: ranges by descending q (ties keep their order), q=0
 * excluded, `*` and unknown languages skipped; English when nothing matches.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-12.5.4
 */
export function localeFromAcceptLanguage(header: string | null | undefined): PageLocale {
  if (!header) return en
  const ranges = header
    .slice(0, MAX_ACCEPT_LANGUAGE)
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.split(";")
      let q = 1
      for (const param of params) {
        const m = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param)
        if (m) q = Number(m[1])
      }
      return { tag: tag.trim(), q, index }
    })
  ranges.sort((a, b) => b.q - a.q || a.index - b.index)
  for (const { tag, q } of ranges) {
    if (q <= 0 || tag === "*") continue
    const locale = findLocale(tag)
    if (locale) return locale
  }
  return en
}

/** The page locale of a request, and whether it came from Accept-Language (then the response varies on it). */
export function chooseLocale(
  configLocale: string | undefined,
  acceptLanguage: string | null | undefined,
): { locale: PageLocale; fromRequest: boolean } {
  if (typeof configLocale === "string" && configLocale.trim())
    return { locale: findLocale(configLocale) ?? en, fromRequest: false }
  return { locale: localeFromAcceptLanguage(acceptLanguage), fromRequest: true }
}

/** Fills `{provider}` in a locale template. */
export function withProvider(template: string, provider: string): string {
  return template.split("{provider}").join(provider)
}

/** Fills `{brand}` in a locale template. */
export function withBrand(template: string, brand: string): string {
  return template.split("{brand}").join(brand)
}
