// The sign-in page: a button per OAuth provider (logo and colours), the e-mail, credentials and passkey forms,
// dividers between sections, and the `?error=` banner. Pure: props in, HTML and its CSP out.
import type { ResolvedProvider } from "../domain.js"
import type { Theme } from "../types.js"
import { buttonColors, documentShell, escapeHtml, safeImageUrl, type RenderedPage } from "./html.js"
import { withProvider, type PageLocale, type SignInErrorCode } from "./locales/index.js"

export interface SignInPageProps {
  providers: readonly ResolvedProvider[]
  basePath: string
  origin: string
  csrfToken: string
  callbackUrl: string
  error?: string | null
  theme: Theme
  locale: PageLocale
}

/** A form-field attribute as page text: only a string is used; anything else (a signal, a number) is the default. */
function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" ? value : fallback
}

/** A form field as the page renders it (credentials `credentials` and WebAuthn `formFields`, Auth.js's shape). */
interface FieldSpec {
  label?: unknown
  type?: unknown
  placeholder?: unknown
  autocomplete?: unknown
  required?: unknown
}

function fieldsOf(value: unknown): [string, FieldSpec][] {
  if (typeof value !== "object" || value === null) return []
  return Object.entries(value).map(([name, f]): [string, FieldSpec] => [name, typeof f === "object" && f !== null ? (f as FieldSpec) : {}])
}

/** The field's own `autocomplete`, else one from its type or name, so password managers fill the right thing. */
export function autocompleteFor(name: string, field: FieldSpec): string | undefined {
  if (typeof field.autocomplete === "string") return field.autocomplete
  const type = stringOr(field.type, "text").toLowerCase()
  const lower = name.toLowerCase()
  if (type === "password" || lower === "password") return "current-password"
  if (type === "email" || lower === "email") return "email"
  if (/^(?:user(?:name)?|login|user_?id)$/.test(lower)) return "username"
  return undefined
}

/** Label and input, tied by `for`/`id`; `describedBy` names the element (the form's button) that tells it apart. */
function field(id: string, name: string, f: FieldSpec, label: string, describedBy?: string): string {
  const autocomplete = autocompleteFor(name, f)
  const extra = `${autocomplete ? ` autocomplete="${escapeHtml(autocomplete)}"` : ""}${f.required === true ? " required" : ""}${describedBy ? ` aria-describedby="${escapeHtml(describedBy)}"` : ""}`
  return `<label for="${escapeHtml(id)}">${escapeHtml(label)}</label><input id="${escapeHtml(id)}" name="${escapeHtml(name)}" type="${escapeHtml(stringOr(f.type, "text"))}" placeholder="${escapeHtml(stringOr(f.placeholder, ""))}"${extra}>`
}

/** True for a field label left at Auth.js's default "Email" (or unset) on a field named `email`. */
function isDefaultEmailLabel(name: string, f: FieldSpec): boolean {
  return name === "email" && (f.label === undefined || f.label === "Email")
}

/**
 * The label of a field: a built-in form's default `email` label comes from the locale (in a passkey form its own
 * text, so it never reads like the e-mail provider's field), any other as configured.
 */
function fieldLabel(name: string, f: FieldSpec, locale: PageLocale, passkey = false): string {
  if (isDefaultEmailLabel(name, f)) return passkey ? locale.signIn.passkeyEmailLabel : locale.signIn.emailLabel
  return stringOr(f.label, name)
}

/**
 * The name a provider's button shows: Auth.js's default names of the e-mail ("Email") and credentials
 * ("Credentials") providers in the page's language; every other name as configured.
 */
function providerName(p: ResolvedProvider, locale: PageLocale): string {
  if (p.type === "email" && p.name === "Email") return locale.signIn.providerNames.email
  if (p.type === "credentials" && p.name === "Credentials") return locale.signIn.providerNames.credentials
  return p.name
}

function buttonText(p: ResolvedProvider, locale: PageLocale): string {
  return escapeHtml(withProvider(locale.signIn.withProvider, providerName(p, locale)))
}

function signInBanner(error: string | null | undefined, locale: PageLocale): string {
  if (!error) return ""
  const known = Object.hasOwn(locale.signIn.errors, error) ? locale.signIn.errors[error as SignInErrorCode] : undefined
  return `<div id="signin-error" class="error" role="alert">${escapeHtml(known ?? locale.signIn.defaultError)}</div>`
}

/** True when the sign-in page for these providers carries the passkey script (its CSP then allows it by hash). */
export function signInPageHasScript(providers: readonly ResolvedProvider[]): boolean {
  return providers.some((p) => p.type === "webauthn")
}

interface Section {
  kind: "oauth" | "form"
  html: string[]
}

/** A field of a form on the page, planned before any is rendered so labels and ids can be checked page-wide. */
interface PlannedField {
  name: string
  spec: FieldSpec
  label: string
}

/** Auth.js's default `formFields` of the WebAuthn/Passkey providers: the field autofill offers passkeys in. */
const DEFAULT_PASSKEY_FIELDS: Readonly<Record<string, FieldSpec>> = { email: { autocomplete: "username webauthn" } }

/** The fields of the e-mail, credentials or passkey form of `p`, with their labels (empty for an OAuth provider). */
function plannedFields(p: ResolvedProvider, locale: PageLocale): PlannedField[] {
  if (p.type === "email") {
    return [{ name: "email", spec: { type: "email", placeholder: locale.signIn.emailPlaceholder, autocomplete: "email", required: true }, label: locale.signIn.emailLabel }]
  }
  if (p.type === "credentials") {
    return fieldsOf("credentials" in p ? p.credentials : undefined).map(([name, spec]) => ({ name, spec, label: fieldLabel(name, spec, locale) }))
  }
  if (p.type === "webauthn") {
    const configured = "formFields" in p ? p.formFields : undefined
    const fields = fieldsOf(typeof configured === "object" && configured !== null ? configured : DEFAULT_PASSKEY_FIELDS)
    // No `required`: the form is novalidate, and an empty field means "sign in with any passkey".
    return fields.map(([name, spec]) => ({ name, spec: { ...spec, required: undefined }, label: fieldLabel(name, spec, locale, true) }))
  }
  return []
}

/** A label compared with the others on the page: case and surrounding space do not tell two fields apart. */
const labelKey = (label: string) => label.trim().toLowerCase()

/** Renders the planned fields of one form; `buttonId` is the form's submit button. */
type FieldRenderer = (providerId: string, fields: readonly PlannedField[], buttonId: string) => string

/**
 * The field renderer of a page with these fields. Ids are `input-<name>-for-<provider id>`, made unique on the page
 * should two ever coincide. A field whose label another field on the page also has (labels an app set itself, e.g. a
 * credentials "Email" next to the e-mail provider's) is described by its form's button, which names the provider.
 */
function fieldRenderer(all: readonly PlannedField[]): FieldRenderer {
  const counts = new Map<string, number>()
  for (const f of all) counts.set(labelKey(f.label), (counts.get(labelKey(f.label)) ?? 0) + 1)
  const used = new Set<string>()
  const uniqueId = (base: string) => {
    let id = base
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`
    used.add(id)
    return id
  }
  return (providerId, fields, buttonId) => fields.map((f) => {
    const shared = (counts.get(labelKey(f.label)) ?? 0) > 1
    return field(uniqueId(`input-${f.name}-for-${providerId}`), f.name, f.spec, f.label, shared ? buttonId : undefined)
  }).join("")
}

/**
 * The sign-in page. Sections keep the configured order; consecutive OAuth buttons share one section, and a divider
 * ("or") separates sections. Provider colours become `.provider-<n>` rules in the theme sheet (never a style
 * attribute, which the CSP would refuse), keyed by position so no provider id reaches the CSS.
 */
export function signInPage(props: SignInPageProps): RenderedPage {
  const { providers, basePath, origin, csrfToken, callbackUrl, error, theme, locale } = props
  const hidden = `<input type="hidden" name="csrfToken" value="${escapeHtml(csrfToken)}"><input type="hidden" name="callbackUrl" value="${escapeHtml(callbackUrl)}">`
  const sections: Section[] = []
  const add = (kind: Section["kind"], html: string) => {
    const last = sections.at(-1)
    if (kind === "oauth" && last?.kind === "oauth") last.html.push(html)
    else sections.push({ kind, html: [html] })
  }
  const planned = providers.map((p) => plannedFields(p, locale))
  const fields = fieldRenderer(planned.flat())
  let css = ""
  let passkeys = 0
  providers.forEach((p, index) => {
    const id = escapeHtml(p.id)
    const own = planned[index] as PlannedField[]
    if (p.type === "oauth" || p.type === "oidc") {
      const style = "style" in p ? (p.style as Record<string, unknown> | undefined) : undefined
      const colors = buttonColors(style?.bg, style?.text)
      if (colors) css += `.provider-${index}{--p-bg:${colors.bg};--p-text:${colors.text}}`
      const logoUrl = safeImageUrl(style?.logo)
      const logo = logoUrl ? `<img src="${escapeHtml(logoUrl)}" alt="" width="20" height="20">` : ""
      add("oauth", `<form id="signin-form-${id}" action="${escapeHtml(`${origin}${basePath}/signin/${p.id}`)}" method="POST" data-provider="${id}">${hidden}<button id="signin-button-${id}" class="button provider provider-${index}" type="submit">${logo}<span>${buttonText(p, locale)}</span></button></form>`)
    } else if (p.type === "email") {
      const inputs = fields(p.id, own, `signin-button-${p.id}`)
      add("form", `<form id="signin-form-${id}" action="${escapeHtml(`${origin}${basePath}/signin/${p.id}`)}" method="POST" data-provider="${id}">${hidden}${inputs}<button id="signin-button-${id}" class="button" type="submit">${buttonText(p, locale)}</button></form>`)
    } else if (p.type === "credentials") {
      if (own.length === 0) return
      const inputs = fields(p.id, own, `signin-button-${p.id}`)
      add("form", `<form id="signin-form-${id}" action="${escapeHtml(`${origin}${basePath}/callback/${p.id}`)}" method="POST" data-provider="${id}">${hidden}${inputs}<button id="signin-button-${id}" class="button" type="submit">${buttonText(p, locale)}</button></form>`)
    } else if (p.type === "webauthn") {
      add("form", passkeyForm(p, passkeys++, own, fields, props))
    }
  })
  const body = sections.map((s) => (s.kind === "oauth" ? `<div class="providers">${s.html.join("")}</div>` : s.html.join("")))
  const divider = `<div class="divider" role="separator">${escapeHtml(locale.signIn.or)}</div>`
  const content = `<h1>${escapeHtml(locale.signIn.heading)}</h1>${signInBanner(error, locale)}${body.join(divider)}`
  return documentShell({ title: locale.signIn.title, content, theme, locale, extraCss: css, script: passkeys > 0 })
}

/**
 * One passkey form: its fields, the button, an error line; data- attributes (escaped) tell the page script where to
 * go and what to say. The first passkey provider's elements have the stable ids `passkey-form`, `passkey-signin`,
 * `passkey-error`; later ones get `-<provider id>` appended.
 */
function passkeyForm(p: ResolvedProvider, index: number, own: readonly PlannedField[], fields: FieldRenderer, props: SignInPageProps): string {
  const { locale } = props
  const rawSuffix = index === 0 ? "" : `-${p.id}`
  const suffix = escapeHtml(rawSuffix)
  const id = escapeHtml(p.id)
  // The WebAuthn/Passkey provider functions default it to true; the config check holds it to one provider.
  const conditional = "enableConditionalUI" in p && p.enableConditionalUI === true
  const inputs = fields(p.id, own, `passkey-signin${rawSuffix}`)
  const m = locale.passkey
  const messages = `data-msg-unsupported="${escapeHtml(m.unsupported)}" data-msg-cancelled="${escapeHtml(m.cancelled)}" data-msg-registered="${escapeHtml(m.alreadyRegistered)}" data-msg-failed="${escapeHtml(m.failed)}"`
  const data = `data-webauthn-provider="${id}" data-base-path="${escapeHtml(props.basePath)}" data-csrf-token="${escapeHtml(props.csrfToken)}" data-callback-url="${escapeHtml(props.callbackUrl)}" data-conditional="${conditional}" data-state="idle" ${messages}`
  return `<form id="passkey-form${suffix}" action="${escapeHtml(`${props.origin}${props.basePath}/callback/${p.id}`)}" method="POST" novalidate ${data}>${inputs}<button id="passkey-signin${suffix}" class="button" type="submit">${buttonText(p, locale)}</button><p id="passkey-error${suffix}" class="error" role="alert" data-passkey-error hidden></p></form>`
}
