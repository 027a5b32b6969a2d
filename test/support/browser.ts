// A tiny programmatic browser for OAuth / OIDC flow tests.
//
// - In-process apps: origins listed in `apps` (e.g. Gatehouse's virtual http://localhost:3000) are served
//   by calling their handler with a web Request; every other URL must be loopback (127.0.0.1, localhost,
//   [::1]) and is fetched for real with `redirect: "manual"`. Anything else throws, so a test can never
//   talk to the internet.
// - Cookies behave as in a browser: stored per host (cookies ignore ports) and path, Max-Age / Expires,
//   Secure (accepted and sent on https and on loopback, which browsers treat as secure contexts),
//   `__Secure-` / `__Host-` prefix rules, and SameSite: every request here is a top-level navigation, so a
//   cross-site GET carries Lax and None cookies, a cross-site POST only None cookies, Strict cookies only
//   go on same-site navigations.
// - `follow()` navigates: it follows redirects (301/302/303 -> GET, 307/308 keep method and body), sends
//   `Origin` on POSTs and `Sec-Fetch-Site` everywhere (computed over the redirect chain), completes the
//   test OP's login and consent pages (forms marked `data-interaction`, see oidc-op.ts) with
//   `options.user`, and submits auto-submitting form pages (OIDC response_mode=form_post) as the browser's
//   script would.

export type Handler = (request: Request) => Response | Promise<Response>

export interface BrowserOptions {
  /** In-process origins: `{ "http://localhost:3000": (req) => Auth(req, config) }`. */
  apps?: Record<string, Handler>
  /** Credentials for the OP login page (`login` = sub or e-mail). Without them `follow` stops at the login page. */
  user?: { login: string; password: string }
  /** What to do on the OP consent page. Default "approve". */
  consent?: "approve" | "deny"
  /** Upper bound on requests per `follow()`. Default 30. */
  maxSteps?: number
}

export interface StoredCookie {
  name: string
  value: string
  host: string
  path: string
  expires?: number
  secure: boolean
  httpOnly: boolean
  sameSite: "strict" | "lax" | "none"
  created: number
}

export interface Step {
  method: string
  url: string
  status: number
  location?: string
  /** Why the request was made. */
  kind: "start" | "redirect" | "interaction" | "form_post" | "fetch"
  secFetchSite: "same-origin" | "same-site" | "cross-site" | "none"
  /** Names of the cookies the request carried. */
  sentCookies: string[]
  /** Form body of a POST, if any. */
  form?: Record<string, string>
}

export interface FollowResult {
  /** The final response (its body is unread unless it was HTML, then see `html`). */
  response: Response
  status: number
  url: string
  /** The final response's body when it was HTML. */
  html?: string
  steps: Step[]
}

export interface ParsedForm {
  action: string
  method: string
  attrs: Record<string, string>
  fields: [string, string][]
}

// ---------------------------------------------------------------------------------------------
// URL helpers

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"])

function isTrustworthy(url: URL): boolean {
  return url.protocol === "https:" || LOOPBACK.has(url.hostname) || url.hostname.endsWith(".localhost")
}

function site(url: URL): string {
  return `${url.protocol}//${url.hostname}`
}

function defaultPath(url: URL): string {
  const p = url.pathname
  if (!p.startsWith("/") || p.lastIndexOf("/") === 0) return "/"
  return p.slice(0, p.lastIndexOf("/"))
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true
  if (!requestPath.startsWith(cookiePath)) return false
  return cookiePath.endsWith("/") || requestPath[cookiePath.length] === "/"
}

// ---------------------------------------------------------------------------------------------
// Cookies

export class CookieStore {
  private list: StoredCookie[] = []
  private seq = 0

  /** Applies one response's Set-Cookie headers for a request to `url`. Malformed or refused cookies are dropped. */
  store(url: URL, response: Response, now = Date.now()): void {
    for (const line of response.headers.getSetCookie()) this.storeLine(url, line, now)
  }

  storeLine(url: URL, line: string, now = Date.now()): void {
    const [pair = "", ...parts] = line.split(";")
    const eq = pair.indexOf("=")
    if (eq <= 0) return
    const name = pair.slice(0, eq).trim()
    const value = pair.slice(eq + 1).trim()
    let path: string | undefined
    let expires: number | undefined
    let maxAge: number | undefined
    let secure = false
    let httpOnly = false
    let sameSite: StoredCookie["sameSite"] = "lax" // browsers' default when the attribute is absent
    let domain: string | undefined
    for (const part of parts) {
      const i = part.indexOf("=")
      const key = (i === -1 ? part : part.slice(0, i)).trim().toLowerCase()
      const val = i === -1 ? "" : part.slice(i + 1).trim()
      if (key === "path" && val.startsWith("/")) path = val
      else if (key === "expires") {
        const t = Date.parse(val)
        if (!Number.isNaN(t)) expires = t
      } else if (key === "max-age" && /^-?\d+$/.test(val)) maxAge = Number(val)
      else if (key === "secure") secure = true
      else if (key === "httponly") httpOnly = true
      else if (key === "samesite") {
        const v = val.toLowerCase()
        sameSite = v === "strict" || v === "none" ? v : "lax"
      } else if (key === "domain" && val) domain = val.replace(/^\./, "").toLowerCase()
    }
    const host = url.hostname.toLowerCase()
    if (domain !== undefined && domain !== host) return // no cross-domain cookies in these tests
    if (secure && !isTrustworthy(url)) return
    if (sameSite === "none" && !secure) return
    if (name.startsWith("__Secure-") && !secure) return
    if (name.startsWith("__Host-") && (!secure || domain !== undefined || path !== "/")) return
    const cookiePath = path ?? defaultPath(url)
    const expiry = maxAge !== undefined ? now + maxAge * 1000 : expires
    const existing = this.list.findIndex((c) => c.name === name && c.host === host && c.path === cookiePath)
    const created = existing === -1 ? this.seq++ : (this.list[existing]?.created ?? this.seq++)
    if (existing !== -1) this.list.splice(existing, 1)
    if (expiry !== undefined && expiry <= now) return // deletion
    this.list.push({
      name,
      value,
      host,
      path: cookiePath,
      ...(expiry !== undefined ? { expires: expiry } : {}),
      secure,
      httpOnly,
      sameSite,
      created,
    })
  }

  /** The cookies a top-level navigation to `url` carries. */
  select(url: URL, ctx: { crossSite: boolean; method: string }, now = Date.now()): StoredCookie[] {
    this.list = this.list.filter((c) => c.expires === undefined || c.expires > now)
    const safe = ctx.method === "GET" || ctx.method === "HEAD"
    return this.list
      .filter((c) => c.host === url.hostname.toLowerCase())
      .filter((c) => pathMatches(url.pathname, c.path))
      .filter((c) => !c.secure || isTrustworthy(url))
      .filter((c) => !ctx.crossSite || c.sameSite === "none" || (c.sameSite === "lax" && safe))
      .sort((a, b) => b.path.length - a.path.length || a.created - b.created)
  }

  /** Cookies stored for a host (any path), for assertions. */
  forHost(host: string): StoredCookie[] {
    const now = Date.now()
    return this.list.filter((c) => c.host === host.toLowerCase() && (c.expires === undefined || c.expires > now))
  }

  get(host: string, name: string): StoredCookie | undefined {
    return this.forHost(host).find((c) => c.name === name)
  }

  /** Plants or replaces a cookie (Path=/, SameSite=Lax unless given), e.g. to simulate tampering. */
  set(
    host: string,
    name: string,
    value: string,
    attrs: Partial<Omit<StoredCookie, "name" | "value" | "host">> = {},
  ): void {
    this.delete(host, name)
    this.list.push({
      name,
      value,
      host: host.toLowerCase(),
      path: "/",
      secure: false,
      httpOnly: true,
      sameSite: "lax",
      created: this.seq++,
      ...attrs,
    })
  }

  delete(host: string, name: string): void {
    this.list = this.list.filter((c) => !(c.host === host.toLowerCase() && c.name === name))
  }

  clear(): void {
    this.list = []
  }
}

// ---------------------------------------------------------------------------------------------
// HTML forms

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" }

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === "#") {
      const code = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)
      return Number.isFinite(code) ? String.fromCodePoint(code) : m
    }
    return ENTITIES[e.toLowerCase()] ?? m
  })
}

function parseAttrs(s: string): Record<string, string> {
  const out: Record<string, string> = {}
  const re = /([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?/g
  for (let m = re.exec(s); m; m = re.exec(s)) {
    const name = (m[1] ?? "").toLowerCase()
    if (!(name in out)) out[name] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? "")
  }
  return out
}

/** Extracts the forms of a page with their successful controls (no submitter button). */
export function parseForms(html: string, pageUrl: string): ParsedForm[] {
  const forms: ParsedForm[] = []
  const formRe = /<form\b([^>]*)>([\s\S]*?)<\/form\s*>/gi
  for (let m = formRe.exec(html); m; m = formRe.exec(html)) {
    const attrs = parseAttrs(m[1] ?? "")
    const inner = m[2] ?? ""
    const fields: [string, string][] = []
    const inputRe = /<input\b([^>]*)>/gi
    for (let i = inputRe.exec(inner); i; i = inputRe.exec(inner)) {
      const a = parseAttrs(i[1] ?? "")
      const type = (a.type ?? "text").toLowerCase()
      if (!a.name || "disabled" in a) continue
      if (["submit", "button", "image", "reset", "file"].includes(type)) continue
      if ((type === "checkbox" || type === "radio") && !("checked" in a)) continue
      fields.push([a.name, a.value ?? (type === "checkbox" || type === "radio" ? "on" : "")])
    }
    const taRe = /<textarea\b([^>]*)>([\s\S]*?)<\/textarea\s*>/gi
    for (let t = taRe.exec(inner); t; t = taRe.exec(inner)) {
      const a = parseAttrs(t[1] ?? "")
      if (a.name) fields.push([a.name, decodeEntities(t[2] ?? "")])
    }
    forms.push({
      action: new URL(attrs.action || pageUrl, pageUrl).href,
      method: (attrs.method ?? "get").toUpperCase(),
      attrs,
      fields,
    })
  }
  return forms
}

function isAutoSubmitPage(html: string): boolean {
  // oidc-provider: document.forms[0].submit(); others use onload="document.forms[0].submit()" or similar.
  return /\.submit\(\s*\)/.test(html) && /<form\b/i.test(html)
}

// ---------------------------------------------------------------------------------------------
// The browser

interface Navigation {
  method: string
  url: URL
  body?: string
  contentType?: string
  /** Origin of the document that started the navigation; undefined = typed into the address bar. */
  initiator?: string
  /** Every URL of the navigation so far (for Sec-Fetch-Site and SameSite). */
  chain: URL[]
  kind: Step["kind"]
}

export class Browser {
  readonly cookies = new CookieStore()
  readonly history: Step[] = []
  readonly options: BrowserOptions
  private readonly apps = new Map<string, Handler>()

  constructor(options: BrowserOptions = {}) {
    this.options = options
    for (const [origin, handler] of Object.entries(options.apps ?? {})) this.apps.set(new URL(origin).origin, handler)
  }

  /**
   * One request, no redirect following, with cookies and fetch metadata. `initiator` is the origin of the
   * page making the request (default: the target's own origin, i.e. a same-origin page or fetch).
   */
  async request(
    input: Request | string,
    init: { initiator?: string | null; kind?: Step["kind"] } = {},
  ): Promise<Response> {
    const req = typeof input === "string" ? new Request(input) : input
    const url = new URL(req.url)
    const body = req.method === "GET" || req.method === "HEAD" ? undefined : await req.text()
    const initiator = init.initiator === null ? undefined : (init.initiator ?? url.origin)
    return this.send(
      {
        method: req.method,
        url,
        ...(body !== undefined ? { body } : {}),
        ...(req.headers.get("content-type") ? { contentType: req.headers.get("content-type") ?? "" } : {}),
        ...(initiator ? { initiator } : {}),
        chain: [url],
        kind: init.kind ?? "fetch",
      },
      req.headers,
      [],
    )
  }

  /**
   * Navigates: sends `input` and follows redirects, OP interactions and auto-submitting forms until a
   * response that needs no further action. `initiator` as for `request()`.
   */
  async follow(
    input: Request | string,
    init: { initiator?: string | null; maxSteps?: number } = {},
  ): Promise<FollowResult> {
    const req = typeof input === "string" ? new Request(input) : input
    const url = new URL(req.url)
    const body = req.method === "GET" || req.method === "HEAD" ? undefined : await req.text()
    const initiator = init.initiator === null ? undefined : (init.initiator ?? url.origin)
    const maxSteps = init.maxSteps ?? this.options.maxSteps ?? 30
    const steps: Step[] = []
    const ct = req.headers.get("content-type")
    let nav: Navigation = {
      method: req.method,
      url,
      ...(body !== undefined ? { body } : {}),
      ...(ct ? { contentType: ct } : {}),
      ...(initiator ? { initiator } : {}),
      chain: [url],
      kind: "start",
    }
    let extraHeaders: Headers | undefined = req.headers
    const seenInteractions = new Set<string>()

    for (;;) {
      if (steps.length >= maxSteps)
        throw new Error(`browser: more than ${maxSteps} steps:\n${steps.map(formatStep).join("\n")}`)
      const res = await this.send(nav, extraHeaders, steps)
      extraHeaders = undefined
      const status = res.status
      const location = res.headers.get("location")

      if ([301, 302, 303, 307, 308].includes(status) && location !== null) {
        const next = new URL(location, nav.url)
        const keep = status === 307 || status === 308
        nav = {
          method: keep ? nav.method : "GET",
          url: next,
          ...(keep && nav.body !== undefined ? { body: nav.body } : {}),
          ...(keep && nav.contentType ? { contentType: nav.contentType } : {}),
          ...(nav.initiator ? { initiator: nav.initiator } : {}),
          chain: [...nav.chain, next],
          kind: "redirect",
        }
        continue
      }

      const type = res.headers.get("content-type") ?? ""
      if (status !== 200 || !type.includes("text/html")) return { response: res, status, url: nav.url.href, steps }
      const html = await res.clone().text()
      const forms = parseForms(html, nav.url.href)
      const done = (): FollowResult => ({ response: res, status, url: nav.url.href, html, steps })

      const interaction = forms.filter((f) => f.attrs["data-interaction"])
      if (interaction.length > 0) {
        if (/data-error\b/.test(html)) return done() // e.g. wrong password: let the test look at the page
        const find = (name: string) => interaction.find((f) => f.attrs["data-interaction"] === name)
        const login = find("login")
        const consent = find("consent")
        let form: ParsedForm | undefined
        let fields: [string, string][] = []
        if (login) {
          if (!this.options.user) return done()
          form = login
          fields = login.fields.map(([k, v]) => [
            k,
            k === "login" ? this.options.user!.login : k === "password" ? this.options.user!.password : v,
          ])
        } else if (consent) {
          form = (this.options.consent ?? "approve") === "approve" ? consent : find("abort")
          fields = form?.fields ?? []
        }
        if (!form) return done()
        const key = `${form.attrs["data-interaction"]} ${form.action}`
        if (seenInteractions.has(key)) throw new Error(`browser: interaction loop at ${key}`)
        seenInteractions.add(key)
        nav = this.submission(form, fields, nav.url, "interaction")
        continue
      }

      if (isAutoSubmitPage(html) && forms[0]) {
        nav = this.submission(forms[0], forms[0].fields, nav.url, "form_post")
        continue
      }
      return done()
    }
  }

  private submission(form: ParsedForm, fields: [string, string][], page: URL, kind: Step["kind"]): Navigation {
    const action = new URL(form.action)
    const data = new URLSearchParams(fields).toString()
    if (form.method === "POST") {
      return {
        method: "POST",
        url: action,
        body: data,
        contentType: "application/x-www-form-urlencoded",
        initiator: page.origin,
        chain: [action],
        kind,
      }
    }
    action.search = data
    return { method: "GET", url: action, initiator: page.origin, chain: [action], kind }
  }

  private secFetchSite(nav: Navigation): Step["secFetchSite"] {
    if (!nav.initiator) return "none"
    const init = new URL(nav.initiator)
    if (nav.chain.every((u) => u.origin === init.origin)) return "same-origin"
    if (nav.chain.every((u) => site(u) === site(init))) return "same-site"
    return "cross-site"
  }

  private async send(nav: Navigation, extra: Headers | undefined, steps: Step[]): Promise<Response> {
    const { url } = nav
    const secFetchSite = this.secFetchSite(nav)
    // For SameSite a navigation is cross-site when its initiator is another site (redirect chains make
    // no difference for Lax/None, which is all these tests use).
    const crossSite = nav.initiator !== undefined && site(new URL(nav.initiator)) !== site(url)
    const cookies = this.cookies.select(url, { crossSite, method: nav.method })

    const headers = new Headers()
    for (const [k, v] of extra ?? [])
      if (!["cookie", "origin", "sec-fetch-site", "content-length", "host"].includes(k)) headers.set(k, v)
    if (!headers.has("accept")) headers.set("accept", "text/html,application/xhtml+xml,*/*;q=0.8")
    headers.set("sec-fetch-site", secFetchSite)
    headers.set("sec-fetch-mode", nav.kind === "fetch" ? "cors" : "navigate")
    if (nav.method !== "GET" && nav.method !== "HEAD") headers.set("origin", nav.initiator ?? "null")
    if (nav.contentType) headers.set("content-type", nav.contentType)
    if (cookies.length > 0) headers.set("cookie", cookies.map((c) => `${c.name}=${c.value}`).join("; "))

    const init: RequestInit = { method: nav.method, headers, ...(nav.body !== undefined ? { body: nav.body } : {}) }
    const app = this.apps.get(url.origin)
    let res: Response
    if (app) {
      res = await app(new Request(url, init))
    } else {
      if (!LOOPBACK.has(url.hostname)) throw new Error(`browser: refusing to contact non-loopback URL ${url.href}`)
      res = await fetch(url, { ...init, redirect: "manual" })
    }
    this.cookies.store(url, res)

    const step: Step = {
      method: nav.method,
      url: url.href,
      status: res.status,
      ...(res.headers.get("location") ? { location: res.headers.get("location") ?? "" } : {}),
      kind: nav.kind,
      secFetchSite,
      sentCookies: cookies.map((c) => c.name),
      ...(nav.body !== undefined && nav.contentType?.includes("x-www-form-urlencoded")
        ? { form: Object.fromEntries(new URLSearchParams(nav.body)) }
        : {}),
    }
    steps.push(step)
    this.history.push(step)
    return res
  }
}

export function formatStep(s: Step): string {
  return `${s.kind.padEnd(11)} ${s.method.padEnd(4)} ${s.url} -> ${s.status}${s.location ? ` ${s.location}` : ""} [${s.secFetchSite}; cookies: ${s.sentCookies.join(",")}]`
}
