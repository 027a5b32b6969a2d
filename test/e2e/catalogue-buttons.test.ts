// The sign-in page shows each provider's button with its logo: one config with EVERY built-in OAuth/OIDC
// provider (the ids read from src/providers/ids.ts's generated OAuthProviderId, so a new provider file is picked
// up), its sign-in page served through Auth() on 127.0.0.1.
// 1. Without a browser: one form per provider posting to <basePath>/signin/<id>, one <img> in it whose src is the
//    provider's style.logo, and a Content-Security-Policy whose img-src allows data:.
// 2. In headless Chromium (one page load): per provider exactly one button, its visible text naming the provider, its
//    logo <img> with the provider's data: URI decoded (complete, naturalWidth > 0) and painting pixels that stand out
//    from the tile it sits on; the button in the page's neutral card/fg colours, the tile in the provider's bg when its
//    bg/text pair meets 4.5:1 (else none: the rule of src/pages/html.ts buttonColors, restated here); no console error, no
//    CSP violation, no request off 127.0.0.1 (browser or server), axe-core without serious/critical violations. A
//    full-page screenshot goes to test/e2e/artifacts/catalogue-buttons.png.
import { mkdirSync, readFileSync } from "node:fs"
import { createServer } from "node:http"
import { fileURLToPath } from "node:url"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import { createHandler } from "../../src/integrations/node.js"
import type { AuthConfig } from "../../src/types.js"
import { listenLocal } from "../support/listen.js"
import type { Listening } from "../support/listen.js"
import { expectNoSeriousAxeViolations } from "./support/axe.js"
import { launchChromium, skipReason } from "./support/chromium.js"

const ARTIFACTS = fileURLToPath(new URL("./artifacts/", import.meta.url))
const PROVIDER_IDS = fileURLToPath(new URL("../../src/providers/ids.ts", import.meta.url))
const BASE_PATH = "/auth"
const SECRET = "e2e-secret-of-the-catalogue-buttons-test-0123456789"

/** The OAuth/OIDC provider files, as the generated OAuthProviderId union lists them. */
const OAUTH_UNION =
  readFileSync(PROVIDER_IDS, "utf8").split("export type OAuthProviderId =")[1]?.split("export type")[0] ?? ""
const FILE_IDS = [...OAUTH_UNION.matchAll(/^\s*\|\s*"([^"]+)"\s*$/gm)].map((m) => m[1] as string)

/**
 * Options beyond clientId/clientSecret that a provider needs before its config resolves (the page answers 500
 * otherwise): the deployment URL of self-hosted / tenant-based ones, NetSuite's account and userinfo RESTlet.
 * A new provider that needs one fails the "every provider resolves" check below with Gatehouse's message naming it.
 */
const NEEDS: Record<string, Record<string, unknown>> = {
  asgardeo: { issuer: "https://api.asgardeo.io/t/acme" },
  auth0: { issuer: "https://acme.eu.auth0.com" },
  authentik: { issuer: "https://authentik.acme.example/application/o/app/" },
  "azure-ad-b2c": { issuer: "https://acme.b2clogin.com/acme.onmicrosoft.com/B2C_1_signin/v2.0/" },
  battlenet: { issuer: "https://oauth.battle.net" },
  beyondidentity: { issuer: "https://auth-us.beyondidentity.com/v1/tenants/t/realms/r/applications/a" },
  "boxyhq-saml": { issuer: "https://jackson.acme.example" },
  cognito: { issuer: "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_abc" },
  "duende-identity-server6": { issuer: "https://demo.duendesoftware.com" },
  frontegg: { issuer: "https://app-acme.frontegg.com" },
  fusionauth: { issuer: "https://auth.acme.example" },
  "identity-server4": { issuer: "https://is4.acme.example" },
  keycloak: { issuer: "https://keycloak.acme.example/realms/acme" },
  kinde: { issuer: "https://acme.kinde.com" },
  logto: { issuer: "https://acme.logto.app/oidc" },
  mastodon: { issuer: "https://mastodon.social" },
  mattermost: { issuer: "https://chat.acme.example" },
  netsuite: {
    accountID: "1234567",
    userinfo: "https://1234567.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=1&deploy=1",
  },
  nextcloud: { issuer: "https://cloud.acme.example" },
  okta: { issuer: "https://acme.okta.com" },
  onelogin: { issuer: "https://acme.onelogin.com" },
  "ory-hydra": { issuer: "https://hydra.acme.example" },
  osso: { issuer: "https://osso.acme.example" },
  passage: { issuer: "https://auth.passage.id/v1/apps/acme" },
  "ping-id": { issuer: "https://auth.pingone.eu/env-id/as" },
  "united-effects": { issuer: "https://auth.unitedeffects.com/acme" },
  zitadel: { issuer: "https://acme.zitadel.cloud" },
}

/** One provider as the page should show it. `id` is the provider's own id (ory-hydra's is "hydra"). */
interface Expected {
  file: string
  id: string
  name: string
  logo: string
  bg: unknown
  text: unknown
}

/** WCAG relative luminance of a #rgb / #rrggbb colour, undefined for anything else. */
function hexLuminance(color: unknown): number | undefined {
  const m = typeof color === "string" ? /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim()) : null
  if (!m) return undefined
  const hex = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join("") : m[1]!
  const [r, g, b] = [0, 2, 4].map((i) => {
    const s = parseInt(hex.slice(i, i + 2), 16) / 255
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/**
 * Whether the page should paint the button in the provider's own colours: both are set, and a hex pair meets 4.5:1
 * (src/pages/html.ts buttonColors; a pair it cannot judge, such as a keyword, is used as given).
 */
function usesProviderColors(p: Expected): boolean {
  if (typeof p.bg !== "string" || typeof p.text !== "string" || !p.bg || !p.text) return false
  const a = hexLuminance(p.bg)
  const b = hexLuminance(p.text)
  if (a === undefined || b === undefined) return true
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) >= 4.5
}

/** `rgb(r, g, b)` of a #rgb / #rrggbb colour, as getComputedStyle answers it. */
function rgbOf(hex: string): string {
  const h = hex.trim().slice(1)
  const full = h.length === 3 ? [...h].map((c) => c + c).join("") : h
  return `rgb(${[0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)).join(", ")})`
}

const unescapeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")

/** The directives of a CSP header, by lower-cased name. */
function cspDirectives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(";")
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/)
        return [name!.toLowerCase(), values] as const
      }),
  )
}

let expected: Expected[] = []
let config: AuthConfig
const serverErrors: string[] = []

beforeAll(async () => {
  const providers = []
  expected = []
  for (const file of FILE_IDS) {
    const mod = (await import(`../../src/providers/${file}.ts`)) as {
      default: (options: Record<string, unknown>) => Record<string, unknown>
    }
    const p = mod.default({ clientId: `client-${file}`, clientSecret: `secret-${file}`, ...NEEDS[file] })
    const style = (p.style ?? {}) as Record<string, unknown>
    providers.push(p)
    expected.push({
      file,
      id: String(p.id),
      name: String(p.name),
      logo: String(style.logo ?? ""),
      bg: style.bg,
      text: style.text,
    })
  }
  config = {
    secret: SECRET,
    trustHost: true,
    basePath: BASE_PATH,
    theme: { colorScheme: "light" },
    locale: "en",
    session: { strategy: "jwt" },
    logger: {
      error: (error: Error) => void serverErrors.push(`${error.name}: ${error.message}`),
      warn: () => {},
      debug: () => {},
    },
    providers: providers as AuthConfig["providers"],
  }
})

describe("catalogue sign-in page without a browser", () => {
  it("lists every built-in OAuth/OIDC provider once, each with a style (logo as data:image/svg+xml, bg, text)", () => {
    expect(FILE_IDS.length, "OAuthProviderId parsed from ids.ts").toBeGreaterThanOrEqual(93)
    expect(new Set(FILE_IDS).size).toBe(FILE_IDS.length)
    expect(new Set(expected.map((p) => p.id)).size, "provider ids are unique").toBe(expected.length)
    const bad = expected.filter(
      (p) =>
        !p.logo.startsWith("data:image/svg+xml") || typeof p.bg !== "string" || typeof p.text !== "string" || !p.name,
    )
    expect(
      bad.map((p) => p.file),
      "providers without a name, an SVG data: logo, bg and text",
    ).toEqual([])
    expect(
      Object.keys(NEEDS).filter((f) => !FILE_IDS.includes(f)),
      "NEEDS entries for providers that no longer exist",
    ).toEqual([])
  })

  it("GET /auth/signin: one form per provider with its logo <img>, and a CSP whose img-src allows data:", async () => {
    const errorsBefore = serverErrors.length
    const response = await Auth(new Request(`http://127.0.0.1:3000${BASE_PATH}/signin`), config)
    const html = await response.text()
    expect(
      serverErrors.slice(errorsBefore),
      "errors Gatehouse logged (a provider that does not resolve names itself here)",
    ).toEqual([])
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/^text\/html/)

    const csp = cspDirectives(response.headers.get("content-security-policy") ?? "")
    const imgSrc = csp.get("img-src") ?? csp.get("default-src") ?? []
    expect(imgSrc, "CSP img-src (or default-src) allows data: images").toContain("data:")

    const forms = [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map((m) => ({ attrs: m[1]!, body: m[2]! }))
    const problems: string[] = []
    for (const p of expected) {
      const mine = forms.filter((f) =>
        unescapeHtml(/\baction="([^"]*)"/.exec(f.attrs)?.[1] ?? "").endsWith(`${BASE_PATH}/signin/${p.id}`),
      )
      if (mine.length !== 1) {
        problems.push(`${p.file}: ${mine.length} forms posting to ${BASE_PATH}/signin/${p.id}`)
        continue
      }
      const form = mine[0]!
      const buttons = form.body.match(/<button\b/g) ?? []
      const imgs = [...form.body.matchAll(/<img\b[^>]*\bsrc="([^"]*)"/g)].map((m) => unescapeHtml(m[1]!))
      if (buttons.length !== 1) problems.push(`${p.file}: ${buttons.length} buttons in its form`)
      if (imgs.length !== 1) problems.push(`${p.file}: ${imgs.length} <img> in its form`)
      else if (imgs[0] !== p.logo)
        problems.push(`${p.file}: <img src> is not its style.logo (${imgs[0]!.slice(0, 60)}...)`)
      if (!unescapeHtml(form.body.replace(/<[^>]*>/g, "")).includes(p.name))
        problems.push(`${p.file}: button text does not name "${p.name}"`)
    }
    expect(problems).toEqual([])
    expect(forms.filter((f) => /\/signin\/[^"/]+"/.test(f.attrs)).length, "no form besides the providers'").toBe(
      expected.length,
    )
  })
})

/** What one provider's button looks like in the browser. */
interface Seen {
  buttons: number
  text: string
  imgs: number
  src: string
  complete: boolean
  naturalWidth: number
  naturalHeight: number
  /** Pixels (of a 40×40 draw) that the logo paints at all, and that differ clearly from what it sits on (its tile). */
  painted: number
  visible: number
  bg: string
  color: string
  /** The background of the tile (`.mark`) the logo sits on: the provider's colour, or transparent. */
  tile: string
}

describe.skipIf(skipReason !== undefined)(
  `catalogue sign-in page in Chromium${skipReason ? ` (skipped: ${skipReason})` : ""}`,
  () => {
    let browser: Browser
    let context: BrowserContext
    let server: Listening
    const originalFetch = globalThis.fetch
    const serverFetches: string[] = []

    beforeAll(async () => {
      mkdirSync(ARTIFACTS, { recursive: true })
      // Gatehouse must not call out either while rendering the page (no discovery for a sign-in page).
      globalThis.fetch = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
        serverFetches.push(input instanceof Request ? input.url : String(input))
        return originalFetch(input, init)
      }) as typeof fetch
      const handle = createHandler(config)
      server = await listenLocal(
        createServer((req, res) => {
          if ((req.url ?? "").split("?")[0] === "/favicon.ico") return void res.writeHead(204).end()
          return void handle(req, res)
        }),
      )
      browser = await launchChromium()
    })

    afterAll(async () => {
      globalThis.fetch = originalFetch
      await context?.close()
      await browser?.close()
      await server?.stop()
    })

    it(`every provider's button: one each, named, its logo loaded and visible, its colours; no console error, CSP violation, off-host request or serious axe violation`, async () => {
      const offHost: string[] = []
      const consoleErrors: string[] = []
      const csp: string[] = []
      context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: "light" })
      await context.route("**/*", (route) => {
        const url = new URL(route.request().url())
        if (url.hostname !== "127.0.0.1") {
          offHost.push(url.href)
          return route.abort()
        }
        return route.continue()
      })
      await context.exposeBinding("__cspViolation", (_source, text: string) => void csp.push(text))
      await context.addInitScript(() => {
        document.addEventListener("securitypolicyviolation", (event) => {
          void (window as unknown as { __cspViolation(text: string): Promise<void> }).__cspViolation(
            `${event.violatedDirective} blocked ${event.blockedURI || "(inline)"}`,
          )
        })
      })
      const page: Page = await context.newPage()
      page.on("pageerror", (error) => consoleErrors.push(`pageerror: ${error.message}`))
      page.on("console", (message) => {
        if (message.type() === "error") consoleErrors.push(`console: ${message.text()}`)
      })
      page.on("request", (request) => {
        const url = new URL(request.url())
        if (url.protocol !== "data:" && url.hostname !== "127.0.0.1") offHost.push(url.href)
      })

      const response = await page.goto(`${server.origin}${BASE_PATH}/signin`, { waitUntil: "load" })
      expect(response?.status()).toBe(200)
      await page.waitForFunction(() => [...document.images].every((img) => img.complete))

      const seen = await page.evaluate(
        ({ ids, basePath }) => {
          const out: Record<string, Seen> = {}
          const canvas = document.createElement("canvas")
          canvas.width = 40
          canvas.height = 40
          const ctx = canvas.getContext("2d", { willReadFrequently: true })!
          const forms = [...document.querySelectorAll("form")]
          for (const id of ids) {
            const mine = forms.filter((f) => new URL(f.action).pathname === `${basePath}/signin/${id}`)
            const buttons = mine.flatMap((f) => [...f.querySelectorAll("button")])
            const button = buttons[0]
            const imgs = button ? [...button.querySelectorAll("img")] : []
            const img = imgs[0]
            const style = button ? getComputedStyle(button) : undefined
            const tile = img?.parentElement?.classList.contains("mark")
              ? getComputedStyle(img.parentElement).backgroundColor
              : ""
            const transparent = (c: string) => c === "" || c === "transparent" || /rgba\(.*,\s*0\)$/.test(c)
            let painted = 0
            let visible = 0
            if (img?.complete && img.naturalWidth > 0 && style) {
              // What the logo paints: drawn alone on a transparent canvas, then over the button's background.
              ctx.clearRect(0, 0, 40, 40)
              ctx.drawImage(img, 0, 0, 40, 40)
              const alone = ctx.getImageData(0, 0, 40, 40).data
              for (let i = 3; i < alone.length; i += 4) if (alone[i]! > 0) painted++
              ctx.fillStyle = transparent(tile) ? style.backgroundColor : tile
              ctx.fillRect(0, 0, 40, 40)
              const bg = ctx.getImageData(0, 0, 1, 1).data
              ctx.drawImage(img, 0, 0, 40, 40)
              const over = ctx.getImageData(0, 0, 40, 40).data
              for (let i = 0; i < over.length; i += 4) {
                const diff = Math.max(
                  Math.abs(over[i]! - bg[0]!),
                  Math.abs(over[i + 1]! - bg[1]!),
                  Math.abs(over[i + 2]! - bg[2]!),
                )
                if (diff > 48) visible++
              }
            }
            out[id] = {
              buttons: buttons.length,
              text: button?.innerText ?? "",
              imgs: imgs.length,
              src: img?.getAttribute("src") ?? "",
              complete: img?.complete ?? false,
              naturalWidth: img?.naturalWidth ?? 0,
              naturalHeight: img?.naturalHeight ?? 0,
              painted,
              visible,
              bg: style?.backgroundColor ?? "",
              color: style?.color ?? "",
              tile,
            }
          }
          return out
        },
        { ids: expected.map((p) => p.id), basePath: BASE_PATH },
      )
      const neutral = await page.evaluate(() => ({
        bg: getComputedStyle(document.querySelector(".card")!).backgroundColor,
        color: getComputedStyle(document.body).color,
      }))
      const providerButtons = await page.locator("form[data-provider] button.provider").count()

      await page.screenshot({ path: `${ARTIFACTS}catalogue-buttons.png`, fullPage: true })

      // Per provider, every failure named (one report rather than the first mismatch).
      const problems: string[] = []
      for (const p of expected) {
        const s = seen[p.id]!
        const tag = `${p.file}${p.file === p.id ? "" : ` (id ${p.id})`}`
        if (s.buttons !== 1) {
          problems.push(`${tag}: ${s.buttons} buttons`)
          continue
        }
        if (!s.text.includes(p.name))
          problems.push(`${tag}: visible text ${JSON.stringify(s.text)} does not include ${JSON.stringify(p.name)}`)
        if (s.imgs !== 1) problems.push(`${tag}: ${s.imgs} <img> in the button`)
        else {
          if (s.src !== p.logo) problems.push(`${tag}: <img src> is not its style.logo`)
          if (!s.complete || s.naturalWidth === 0 || s.naturalHeight === 0)
            problems.push(
              `${tag}: logo did not load (complete ${s.complete}, natural ${s.naturalWidth}x${s.naturalHeight})`,
            )
          else if (s.painted === 0) problems.push(`${tag}: logo paints nothing`)
          // At least 2% of the drawn square stands out from the button's own background.
          else if (s.visible < 32)
            problems.push(
              `${tag}: logo hardly visible on its tile (${s.visible} of 1600 pixels differ from background ${s.tile} on ${s.bg})`,
            )
        }
        // Every button is neutral (a secondary action); the provider's colour is its mark's tile, when the pair is used.
        const own = usesProviderColors(p)
        let wantTile = own ? rgbOf(String(p.bg)) : "rgba(0, 0, 0, 0)"
        if (own && hexLuminance(p.bg) === undefined) {
          // A non-hex colour the page uses as given: compare with the browser's own reading of it.
          wantTile = await page.evaluate((c) => {
            const e = document.createElement("i")
            e.style.color = c
            document.body.append(e)
            const v = getComputedStyle(e).color
            e.remove()
            return v
          }, String(p.bg))
        }
        if (s.bg !== neutral.bg || s.color !== neutral.color)
          problems.push(
            `${tag}: button colours ${s.bg} / ${s.color}, expected the neutral ${neutral.bg} / ${neutral.color}`,
          )
        if (s.imgs === 1 && s.tile !== wantTile)
          problems.push(
            `${tag}: tile ${s.tile}, expected ${own ? "its own colour" : "none"} ${wantTile} (style ${String(p.bg)} / ${String(p.text)})`,
          )
      }
      expect(problems, "providers whose button or logo is not right").toEqual([])
      expect(providerButtons, "provider buttons on the page").toBe(expected.length)

      await expectNoSeriousAxeViolations(page, "the catalogue sign-in page")
      expect(offHost, "requests off 127.0.0.1").toEqual([])
      expect(
        serverFetches.filter((u) => new URL(u).hostname !== "127.0.0.1"),
        "server-side fetches off 127.0.0.1",
      ).toEqual([])
      expect(consoleErrors, "console errors").toEqual([])
      expect(csp, "CSP violations").toEqual([])
      expect(serverErrors, "errors Gatehouse logged").toEqual([])
    }, 60_000)
  },
)
