// Locale choice: config locale, Accept-Language with q-values, English fallback; every locale has every string.
import { describe, expect, it } from "vitest"
import { chooseLocale, de, en, findLocale, localeFromAcceptLanguage, PAGE_LOCALES, withProvider } from "./index.js"

describe("page locales", () => {
  it.each([
    ["de", de],
    ["de-DE", de],
    ["DE-at", de],
    ["en-GB", en],
    ["fr", undefined],
    ["", undefined],
  ])("findLocale(%j)", (tag, locale) => {
    expect(findLocale(tag)).toBe(locale)
  })

  it.each([
    ["de-DE;q=0.9, en;q=0.8", de],
    ["en;q=0.5, de-DE;q=0.9", de],
    ["fr-CH, fr;q=0.9, de;q=0.7, *;q=0.5", de],
    ["de;q=0, en;q=0.1", en],
    ["ja, zh", en],
    ["*", en],
    ["de;q=abc", de],
    ["", en],
  ])("Accept-Language %j", (header, locale) => {
    expect(localeFromAcceptLanguage(header)).toBe(locale)
  })

  it("a very long header is read up to a bound", () => {
    expect(localeFromAcceptLanguage(`${"xx;q=0.1,".repeat(10_000)}de`)).toBe(en)
  })

  it("config locale wins and fixes the language; otherwise the request's, marked as varying", () => {
    expect(chooseLocale("de", "en")).toEqual({ locale: de, fromRequest: false })
    expect(chooseLocale("zz", "de")).toEqual({ locale: en, fromRequest: false })
    expect(chooseLocale(undefined, "de")).toEqual({ locale: de, fromRequest: true })
    expect(chooseLocale("", null)).toEqual({ locale: en, fromRequest: true })
  })

  it("every shipped locale has a non-empty string wherever English has one, and a lang matching its key", () => {
    const paths = (o: unknown, prefix = ""): string[] =>
      typeof o === "object" && o !== null ? Object.entries(o).flatMap(([k, v]) => paths(v, `${prefix}.${k}`)) : [prefix]
    for (const [tag, locale] of Object.entries(PAGE_LOCALES)) {
      expect(locale.lang).toBe(tag)
      expect(paths(locale)).toEqual(paths(en))
      for (const p of paths(locale))
        expect(
          p
            .split(".")
            .slice(1)
            .reduce((o: any, k) => o[k], locale),
          `${tag}${p}`,
        ).toMatch(/\S/)
      expect(locale.signIn.withProvider).toContain("{provider}")
    }
  })

  it("withProvider fills every {provider}", () => {
    expect(withProvider("Mit {provider} anmelden", "GitHub")).toBe("Mit GitHub anmelden")
    expect(withProvider("{provider}/{provider}", "$&")).toBe("$&/$&")
  })
})
