// The sign-in page's passkey script, in the browser: sign-in from the button and from a field's autofill, on the
// typed ceremony of src/webauthn/. Bundled by scripts/build-page-scripts.mjs into src/pages/scripts.generated.ts.
import {
  authenticationResponseToJSON,
  creationOptionsFromJSON,
  registrationResponseToJSON,
  requestOptionsFromJSON,
} from "../../webauthn/ceremony.js"
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "../../webauthn/types.js"

/*
 * For each passkey sign-in form (`form[data-webauthn-provider]`, only a button): submitting it (the button, or
 * Enter) aborts a waiting autofill request and asks `{basePath}/webauthn-options/<id>?action=authenticate` with no
 * e-mail, so the browser offers every passkey it holds for the site (a discoverable credential). The registration
 * form named by `data-register-form` asks with the typed fields instead, so the server picks register (a new
 * address) or authenticate. Then the ceremony runs, the callback is posted with X-Auth-Return-Redirect, and the
 * browser goes to the returned URL when it is http(s) (the callbackUrl, or signin?error=…; anything else goes to the
 * error page, so a script URL never reaches location). With `data-conditional="true"` it arms an autofill
 * (conditional) request on load, answered from any field on the page whose autocomplete has `webauthn`.
 * `data-state` on the sign-in form: idle | waiting (autofill armed) | busy | error | done. The button at work gets
 * `data-busy` (a spinner). Messages come from `data-msg-unsupported`, `-cancelled`, `-registered` and `-failed`
 * (the page locale), with English as the fallback, shown in the message line of the form that was used.
 * Everything is read from the forms' data- attributes: nothing from the request or the config is in the script.
 */

/** A form the script drives: the sign-in form (a button) or the registration form (the typed fields). */
interface Part {
  form: HTMLFormElement
  button: HTMLButtonElement
  message: HTMLElement
}

/** The answer of GET /webauthn-options/<id>: the ceremony the server picked and its options. */
type OptionsAnswer =
  | { action: "register"; options: PublicKeyCredentialCreationOptionsJSON }
  | { action: "authenticate"; options: PublicKeyCredentialRequestOptionsJSON }

// The one WebAuthn request a page may have waiting: a new one (a button) aborts it (the armed autofill).
let pending: AbortController | null = null

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value, window.location.href)
  } catch {
    return undefined
  }
}

function setup(form: HTMLFormElement): void {
  const d = form.dataset
  const base = `${d.basePath}/`
  const id = encodeURIComponent(d.webauthnProvider!)
  const register = d.registerForm ? document.getElementById(d.registerForm) : null
  const parts: Part[] = [form, register]
    .filter((f): f is HTMLFormElement => Boolean(f))
    .map((f) => ({
      form: f,
      button: f.querySelector<HTMLButtonElement>("button[type=submit]")!,
      message: f.querySelector<HTMLElement>("[data-passkey-error]")!,
    }))
  const first = parts[0]!
  const show = (part: Part, text: string) => {
    part.message.textContent = text
    part.message.hidden = false
  }
  if (!window.PublicKeyCredential || !navigator.credentials) {
    for (const part of parts) part.button.disabled = true
    show(first, d.msgUnsupported || "This browser does not support passkeys.")
    return
  }
  // The registration form's typed fields (`email`, …); the sign-in form (and autofill) sends none.
  const fields = (part: Part | null) => {
    const values = new URLSearchParams()
    if (part && part.form !== form)
      for (const input of part.form.querySelectorAll<HTMLInputElement>("input[name]"))
        if (input.value) values.set(input.name, input.value)
    return values
  }
  const busy = (part: Part, on: boolean) => {
    part.button.disabled = on
    if (on) part.button.setAttribute("data-busy", "")
    else part.button.removeAttribute("data-busy")
  }
  // One attempt: options, ceremony, callback, navigation. `part` null is the autofill (conditional) request.
  const run = async (part: Part | null) => {
    if (pending) pending.abort()
    const controller = new AbortController()
    pending = controller
    const typed = fields(part)
    const query = typed.toString() === "" ? new URLSearchParams({ action: "authenticate" }) : typed
    const res = await fetch(`${base}webauthn-options/${id}?${query}`, {
      headers: { accept: "application/json" },
      credentials: "same-origin",
      cache: "no-store",
    })
    const body: OptionsAnswer | null = await res.json().catch(() => null)
    if (!res.ok || !body?.options) throw new Error(`no WebAuthn options (${res.status})`)
    const conditional = !part
    const register = body.action === "register"
    const credential =
      body.action === "register"
        ? await navigator.credentials.create({
            signal: controller.signal,
            publicKey: creationOptionsFromJSON(body.options),
          })
        : await navigator.credentials.get({
            signal: controller.signal,
            mediation: conditional ? "conditional" : "optional",
            publicKey: requestOptionsFromJSON(body.options, conditional),
          })
    if (pending === controller) pending = null
    if (!credential) throw new Error("no credential")
    d.state = "busy"
    busy(part || first, true)
    const passkey = credential as PublicKeyCredential
    const post = register ? fields(part) : new URLSearchParams()
    post.set("action", body.action)
    post.set(
      "data",
      JSON.stringify(register ? registrationResponseToJSON(passkey) : authenticationResponseToJSON(passkey)),
    )
    post.set("csrfToken", d.csrfToken!)
    post.set("callbackUrl", d.callbackUrl!)
    const answer = await fetch(`${base}callback/${id}`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" },
      body: post,
    })
    const out: { url?: unknown } | null = await answer.json().catch(() => null)
    d.state = "done"
    const next = out && typeof out.url === "string" ? parseUrl(out.url) : undefined
    window.location.href =
      next && (next.protocol === "https:" || next.protocol === "http:") ? next.href : `${base}error?error=Configuration`
  }
  let autofill = false
  const start = (part: Part | null) => {
    d.state = part ? "busy" : "waiting"
    if (part) {
      for (const p of parts) p.message.hidden = true
      busy(part, true)
    }
    run(part).catch((error: unknown) => {
      const name = (error as { name?: unknown } | null)?.name
      if (name === "AbortError") return
      if (!part) {
        if (d.state === "waiting") d.state = "idle"
        return
      }
      busy(part, false)
      d.state = "error"
      show(
        part,
        name === "NotAllowedError"
          ? d.msgCancelled || "The passkey request was cancelled or timed out."
          : name === "InvalidStateError"
            ? d.msgRegistered || "This passkey is already registered. Sign in with it instead."
            : d.msgFailed || "Passkey sign-in failed. Please try again.",
      )
      if (autofill) start(null)
    })
  }
  for (const part of parts)
    part.form.addEventListener("submit", (event) => {
      event.preventDefault()
      start(part)
    })
  if (
    d.conditional === "true" &&
    document.querySelector('input[autocomplete~="webauthn"]') &&
    typeof PublicKeyCredential.isConditionalMediationAvailable === "function"
  ) {
    PublicKeyCredential.isConditionalMediationAvailable().then(
      (available) => {
        if (available && d.state === "idle") {
          autofill = true
          start(null)
        }
      },
      () => {},
    )
  }
}

for (const form of document.querySelectorAll<HTMLFormElement>("form[data-webauthn-provider]")) setup(form)
