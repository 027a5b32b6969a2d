// The sign-in page: OAuth/OIDC buttons first, then one main form (the first e-mail or credentials provider) with the
// page's only primary button, then the further methods (passkey sign-in, the other forms behind a disclosure each);
// the `?error=` banner. Where each provider goes and what its form holds is its sign-in kind's page section
// (flows/kinds/). Pure: props in, HTML and its CSP out.
import type { PlannedField, ResolvedProvider, SignInKind } from "../pipeline-types.js"
import type { Theme } from "../types.js"
import { brandNameOf, buttonColors, documentShell, escapeHtml, safeImageUrl, type RenderedPage } from "./html.js"
import { withBrand, withProvider, type PageLocale, type SignInErrorCode } from "./locales/index.js"
import { autocompleteFor, isPasswordType, stringOr } from "./signin-fields.js"

/** What the page reads of a provider's kind: its page section, and where its form posts. */
export type PageKindOf = (provider: ResolvedProvider) => Pick<SignInKind, "page" | "formAction">

export interface SignInPageProps {
  providers: readonly ResolvedProvider[]
  basePath: string
  origin: string
  csrfToken: string
  callbackUrl: string
  error?: string | null
  theme: Theme
  locale: PageLocale
  /** Each provider's sign-in kind (ResolvedConfig.kindOf). */
  kindOf: PageKindOf
}

/**
 * The text of a provider's button: a kind's default name (Auth.js's "Email" and "Credentials") in the page's language
 * (the section's `localName`); every other name as configured.
 */
function buttonText(p: ResolvedProvider, locale: PageLocale, kindOf: PageKindOf): string {
  const name = kindOf(p).page.localName?.(p, locale) ?? p.name
  return escapeHtml(withProvider(locale.signIn.withProvider, name))
}

function signInBanner(error: string | null | undefined, locale: PageLocale): string {
  if (!error) return ""
  const known = Object.hasOwn(locale.signIn.errors, error) ? locale.signIn.errors[error as SignInErrorCode] : undefined
  return `<div id="signin-error" class="error" role="alert">${escapeHtml(known ?? locale.signIn.defaultError)}</div>`
}

/** True when the sign-in page for these providers carries the passkey script (the form script it always carries). */
export function signInPageHasScript(providers: readonly ResolvedProvider[], kindOf: PageKindOf): boolean {
  return providers.some((p) => kindOf(p).page.place === "passkey")
}

/** `autocomplete` with the `webauthn` token last (the browser then offers passkeys in this field's autofill). */
function withWebAuthnToken(autocomplete: string | undefined): string {
  const tokens = (autocomplete ?? "username").split(/\s+/).filter((t) => t !== "" && t !== "webauthn")
  return [...tokens, "webauthn"].join(" ")
}

/** `autocomplete` without the `webauthn` token (undefined when nothing is left). */
function withoutWebAuthnToken(autocomplete: string | undefined): string | undefined {
  const tokens = (autocomplete ?? "").split(/\s+/).filter((t) => t !== "" && t !== "webauthn")
  return tokens.length ? tokens.join(" ") : undefined
}

/** A label compared with the others on the page: case and surrounding space do not tell two fields apart. */
const labelKey = (label: string) => label.trim().toLowerCase()

/** How one field is rendered beyond its spec. */
interface FieldState {
  /** The element (the form's button or disclosure) that tells apart two fields with the same label. */
  describedBy: string
  /** The field names the user: marked `data-identifier` for the form script, which keeps it across a failed sign-in. */
  identifier?: boolean
}

/** Renders one planned field of a provider's form. */
type FieldRenderer = (providerId: string, f: PlannedField, state: FieldState) => string

/**
 * The field renderer of a page with these fields. Ids are `input-<name>-for-<provider id>`, made unique on the page
 * should two ever coincide. A field whose label another field on the page also has (labels an app set itself, e.g. a
 * credentials "Email" next to the e-mail provider's) is described by `state.describedBy`, which names the provider.
 * A password field gets a show/hide button, hidden until the form script runs (without it the button could do nothing).
 */
function fieldRenderer(all: readonly PlannedField[], locale: PageLocale): FieldRenderer {
  const counts = new Map<string, number>()
  for (const f of all) counts.set(labelKey(f.label), (counts.get(labelKey(f.label)) ?? 0) + 1)
  const used = new Set<string>()
  const uniqueId = (base: string) => {
    let id = base
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`
    used.add(id)
    return id
  }
  const t = locale.signIn
  return (providerId, f, state) => {
    const id = escapeHtml(uniqueId(`input-${f.name}-for-${providerId}`))
    const shared = (counts.get(labelKey(f.label)) ?? 0) > 1
    const password = isPasswordType(f.spec)
    const autocomplete = autocompleteFor(f.name, f.spec)
    const placeholder = stringOr(f.spec.placeholder, "")
    // A password field is never marked, whatever a caller passes: the form script must never keep a password.
    const identifier = state.identifier === true && !password ? " data-identifier" : ""
    const attrs = `${placeholder ? ` placeholder="${escapeHtml(placeholder)}"` : ""}${autocomplete ? ` autocomplete="${escapeHtml(autocomplete)}"` : ""}${f.spec.required === true ? " required" : ""}${identifier}${shared ? ` aria-describedby="${escapeHtml(state.describedBy)}"` : ""}`
    const input = `<input id="${id}" name="${escapeHtml(f.name)}" type="${escapeHtml(stringOr(f.spec.type, "text"))}"${attrs}>`
    const label = `<label for="${id}">${escapeHtml(f.label)}</label>`
    if (!password) return `${label}${input}`
    const reveal = `<button class="reveal" type="button" aria-controls="${id}" aria-label="${escapeHtml(t.showPasswordLabel)}" data-reveal data-show="${escapeHtml(t.showPassword)}" data-hide="${escapeHtml(t.hidePassword)}" data-show-label="${escapeHtml(t.showPasswordLabel)}" data-hide-label="${escapeHtml(t.hidePasswordLabel)}" hidden>${escapeHtml(t.showPassword)}</button>`
    return `${label}<div class="password">${input}${reveal}</div>`
  }
}

/** The passkey mark (a person and a key) on the passkey button (inline SVG: no request, and presentation attributes, which the CSP allows). */
const PASSKEY_MARK = `<span class="mark"><svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false"><g fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"><circle cx="9" cy="7.5" r="3.75"/><path d="M2.5 20.5v-.75A5.75 5.75 0 0 1 8.25 14H11"/><circle cx="17.5" cy="12.5" r="2.75"/><path d="M17.5 15.25v6.25M17.5 18.5h2M17.5 20.5h1.5"/></g></svg></span>`

/** A WebAuthn provider left at the default name of Passkey() or WebAuthn(): its button says "Sign in with a passkey". */
function isDefaultPasskeyName(p: ResolvedProvider): boolean {
  return p.name === "Passkey" || p.name === "WebAuthn"
}

/**
 * The form a failure was about: the first whose kind names this `?error=` code (`failureCode`: CredentialsSignin,
 * EmailSignin). The form script also opens the one it kept a value of.
 */
function failedForm(
  forms: readonly ResolvedProvider[],
  error: string | null | undefined,
  kindOf: PageKindOf,
): ResolvedProvider | undefined {
  if (!error) return undefined
  return forms.find((p) => kindOf(p).page.failureCode === error)
}

/**
 * The sign-in page, in three parts:
 * 1. the OAuth/OIDC buttons, in configured order: neutral buttons, each with the provider's mark on a tile of its
 *    colour (`.provider-<n>` rules in the theme sheet, keyed by position so no provider id reaches the CSS; never a
 *    style attribute, which the CSP would refuse);
 * 2. after an "or" divider, the main form: the first e-mail or credentials provider, with the page's only primary
 *    button (with no such provider, the first passkey button is the primary action);
 * 3. the further methods: the passkey button(s), and every other e-mail or credentials form behind a disclosure of
 *    its own (open when its sign-in just failed); last, per passkey provider, a "Create a passkey" disclosure that
 *    asks for the e-mail.
 * With a passkey provider that enables conditional UI, the main form's identifier field gets the `webauthn`
 * autocomplete token, so the browser offers passkeys where the user starts typing; without a main form, the
 * registration field keeps it.
 */
export function signInPage(props: SignInPageProps): RenderedPage {
  const { providers, basePath, origin, csrfToken, callbackUrl, error, theme, locale, kindOf } = props
  const hidden = `<input type="hidden" name="csrfToken" value="${escapeHtml(csrfToken)}"><input type="hidden" name="callbackUrl" value="${escapeHtml(callbackUrl)}">`
  const sectionOf = (p: ResolvedProvider) => kindOf(p).page
  const planned = new Map(providers.map((p) => [p, sectionOf(p).fields(p, locale)]))
  const placed = (place: "button" | "form" | "passkey") => (p: ResolvedProvider) => sectionOf(p).place === place
  // A form with no fields (a credentials provider that declares none) is left out.
  const forms = providers.filter((p) => placed("form")(p) && (planned.get(p) ?? []).length > 0)
  const passkeys = providers.filter(placed("passkey"))
  const main = forms[0]
  const conditional = passkeys.find((p) => sectionOf(p).conditionalUI?.(p) === true)
  const identifierField = (p: ResolvedProvider) => sectionOf(p).identifierField?.(p)
  const autofillField = main && conditional ? identifierField(main) : undefined
  if (main && autofillField !== undefined) {
    planned.set(
      main,
      (planned.get(main) ?? []).map((f) =>
        f.name === autofillField
          ? { ...f, spec: { ...f.spec, autocomplete: withWebAuthnToken(autocompleteFor(f.name, f.spec)) } }
          : f,
      ),
    )
    // The registration field asks for a new passkey's e-mail: passkeys are offered in the main form instead.
    for (const p of passkeys)
      planned.set(
        p,
        (planned.get(p) ?? []).map((f) => ({
          ...f,
          spec: { ...f.spec, autocomplete: withoutWebAuthnToken(autocompleteFor(f.name, f.spec)) },
        })),
      )
  }
  const render = fieldRenderer(
    providers.flatMap((p) => planned.get(p) ?? []),
    locale,
  )
  const failed = failedForm(forms, error, kindOf)

  /** The fields of an e-mail or credentials form, the one that names the user marked for the form script. */
  const formFields = (p: ResolvedProvider, describedBy: string) => {
    const field = identifierField(p)
    return (planned.get(p) ?? []).map((f) => render(p.id, f, { describedBy, identifier: f.name === field })).join("")
  }
  const actionOf = (p: ResolvedProvider) => escapeHtml(`${origin}${basePath}/${kindOf(p).formAction}/${p.id}`)
  const isButton = placed("button")

  let css = ""
  const oauthButtons = providers
    .map((p, index) => {
      if (!isButton(p)) return ""
      const id = escapeHtml(p.id)
      const style = "style" in p ? (p.style as Record<string, unknown> | undefined) : undefined
      const colors = buttonColors(style?.bg, style?.text)
      if (colors) css += `.provider-${index}{--p-bg:${colors.bg}}`
      const logoUrl = safeImageUrl(style?.logo)
      const logo = logoUrl
        ? `<span class="mark"><img src="${escapeHtml(logoUrl)}" alt="" width="20" height="20"></span>`
        : ""
      return `<form id="signin-form-${id}" action="${actionOf(p)}" method="POST" data-provider="${id}">${hidden}<button id="signin-button-${id}" class="button provider provider-${index}" type="submit">${logo}<span>${buttonText(p, locale, kindOf)}</span></button></form>`
    })
    .join("")

  let primary = ""
  if (main) {
    const id = escapeHtml(main.id)
    primary = `<form id="signin-form-${id}" class="main" action="${actionOf(main)}" method="POST" data-provider="${id}">${hidden}${formFields(main, `signin-button-${main.id}`)}<button id="signin-button-${id}" class="button primary" type="submit">${buttonText(main, locale, kindOf)}</button></form>`
  }
  const further: string[] = []
  const creates: string[] = []
  passkeys.forEach((p, index) => {
    const block = passkeyBlock(p, index, {
      primary: !main && index === 0,
      render,
      planned: planned.get(p) ?? [],
      props,
    })
    if (!main && index === 0) primary = block.signIn
    else further.push(block.signIn)
    creates.push(block.create)
  })
  for (const p of forms.slice(1)) {
    const id = escapeHtml(p.id)
    const summaryId = `signin-method-${p.id}`
    const form = `<form id="signin-form-${id}" action="${actionOf(p)}" method="POST" data-provider="${id}">${hidden}${formFields(p, summaryId)}<button id="signin-button-${id}" class="button" type="submit">${escapeHtml(locale.signIn.continue)}</button></form>`
    further.push(
      `<details class="method"${p === failed ? " open" : ""}><summary id="${escapeHtml(summaryId)}" class="button">${buttonText(p, locale, kindOf)}</summary>${form}</details>`,
    )
  }

  const brand = brandNameOf(theme)
  const heading = brand ? withBrand(locale.signIn.headingWithBrand, brand) : locale.signIn.heading
  const divider =
    oauthButtons && (primary || further.length)
      ? `<div class="divider" role="separator">${escapeHtml(locale.signIn.or)}</div>`
      : ""
  const content = `<h1>${escapeHtml(heading)}</h1>${signInBanner(error, locale)}${oauthButtons ? `<div class="providers">${oauthButtons}</div>` : ""}${divider}${primary}${further.length ? `<div class="methods">${further.join("")}</div>` : ""}${creates.join("")}`
  const title = brand ? heading : locale.signIn.title
  return documentShell({
    title,
    content,
    theme,
    locale,
    extraCss: css,
    script: "form",
    passkeyScript: passkeys.length > 0,
  })
}

interface PasskeyBlockOptions {
  primary: boolean
  render: FieldRenderer
  planned: readonly PlannedField[]
  props: SignInPageProps
}

/**
 * One passkey provider: a sign-in form that is only its button (a discoverable credential: no e-mail asked) and its
 * message line; and, placed at the end of the page, a "Create a passkey" disclosure with the registration form (the
 * provider's `formFields`). Both forms carry `data-passkey`, which the form script leaves to the passkey script.
 * data- attributes (escaped) tell the page script where to go and what to say. The first passkey provider's elements
 * have the stable ids `passkey-form`, `passkey-signin`, `passkey-error`, `passkey-register`,
 * `passkey-register-button`, `passkey-register-error`; later ones get `-<provider id>` appended.
 */
function passkeyBlock(
  p: ResolvedProvider,
  index: number,
  options: PasskeyBlockOptions,
): { signIn: string; create: string } {
  const { props, render } = options
  const { locale } = props
  const rawSuffix = index === 0 ? "" : `-${p.id}`
  const suffix = escapeHtml(rawSuffix)
  const id = escapeHtml(p.id)
  const action = escapeHtml(`${props.origin}${props.basePath}/callback/${p.id}`)
  const m = locale.passkey
  const messages = `data-msg-unsupported="${escapeHtml(m.unsupported)}" data-msg-cancelled="${escapeHtml(m.cancelled)}" data-msg-registered="${escapeHtml(m.alreadyRegistered)}" data-msg-failed="${escapeHtml(m.failed)}"`
  const data = `data-webauthn-provider="${id}" data-base-path="${escapeHtml(props.basePath)}" data-csrf-token="${escapeHtml(props.csrfToken)}" data-callback-url="${escapeHtml(props.callbackUrl)}" data-conditional="${props.kindOf(p).page.conditionalUI?.(p) === true}" data-register-form="passkey-register${suffix}" data-state="idle" ${messages}`
  const text = isDefaultPasskeyName(p) ? escapeHtml(locale.signIn.passkeySignIn) : buttonText(p, locale, props.kindOf)
  const signIn = `<form id="passkey-form${suffix}" action="${action}" method="POST" novalidate data-passkey ${data}><button id="passkey-signin${suffix}" class="button${options.primary ? " primary" : ""}" type="submit">${options.primary ? "" : PASSKEY_MARK}<span>${text}</span></button><p id="passkey-error${suffix}" class="error" role="alert" data-passkey-error hidden></p></form>`
  const fields = options.planned
    .map((f) => render(p.id, f, { describedBy: `passkey-register-button${rawSuffix}` }))
    .join("")
  const create = escapeHtml(locale.signIn.createPasskey)
  const register = `<form id="passkey-register${suffix}" action="${action}" method="POST" data-passkey><p class="hint">${escapeHtml(locale.signIn.createPasskeyHint)}</p>${fields}<button id="passkey-register-button${suffix}" class="button" type="submit">${create}</button><p id="passkey-register-error${suffix}" class="error" role="alert" data-passkey-error hidden></p></form>`
  return { signIn, create: `<details class="create"><summary>${create}</summary>${register}</details>` }
}
