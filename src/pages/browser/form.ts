// The sign-in page's form script, in the browser: busy buttons, show/hide password, and the identifier given back
// after a failed sign-in. Bundled by scripts/build-page-scripts.mjs into src/pages/scripts.generated.ts.

/*
 * - `button[data-reveal]` (rendered `hidden`, so a page without scripts shows no dead control): shown, and a click
 *   switches the field named by `aria-controls` between password and text, with the text and accessible name from
 *   `data-show`/`data-hide` and `data-show-label`/`data-hide-label`. Submitting the form hides the password again,
 *   so password managers see a password field.
 * - A form submitted (not the passkey forms, `[data-passkey]`, whose own script shows their state): `aria-busy="true"`
 *   on the form, `data-busy` and `aria-disabled="true"` on the button that submitted it (the CSS draws a spinner); a
 *   second submit while busy is dropped. The button is not `disabled`: that would take it out of the submitted form
 *   and the focus order. Coming back through the back/forward cache clears the busy state.
 * - The identifier kept across a failed sign-in, in the browser only (the server sets no cookie on a failure): as any
 *   form is submitted, the value of its `input[data-identifier]` (the username or e-mail field; the page never marks a
 *   password or hidden field, and the script checks the type again) goes into this tab's sessionStorage under a key
 *   for this page's path, with the form's id and the time; a form without one removes the entry. On load the entry is
 *   read and removed at once; when the page shows the `?error=` banner (`#signin-error`) and the entry is under five
 *   minutes old, its value goes back into that form's field as `input.value` (text, never HTML), the form's disclosure
 *   opens, and the focus goes to its password field, else the identifier field. Without script nothing is kept.
 * It reads data- attributes, the URL's path and this tab's sessionStorage: nothing from the server is in the script.
 */

/** What a submitted form leaves in sessionStorage: its id, the identifier typed, and when (ms since the epoch). */
interface Saved {
  form: string
  value: unknown
  at: number
}

const key = `gatehouse.signin-identifier:${location.pathname}`
/** Keeping the identifier for five minutes covers a failed sign-in's round trip, not a later visit. */
const KEEP_MS = 300_000

/** The form's identifier field, never a password or hidden one. */
function named(form: HTMLFormElement): HTMLInputElement | null {
  const input = form.querySelector<HTMLInputElement>("input[data-identifier]")
  return input && input.type !== "password" && input.type !== "hidden" ? input : null
}

let saved: Saved | null = null
try {
  saved = JSON.parse(sessionStorage.getItem(key) || "null")
  sessionStorage.removeItem(key)
} catch {}
const failed = saved && document.getElementById(saved.form)
if (
  failed instanceof HTMLFormElement &&
  document.getElementById("signin-error") &&
  typeof saved!.value === "string" &&
  Date.now() - saved!.at < KEEP_MS
) {
  const input = named(failed)
  if (input) {
    input.value = saved!.value
    const details = failed.closest("details")
    if (details) details.open = true
    ;(failed.querySelector<HTMLInputElement>("input[type=password]") || input).focus()
  }
}

for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-reveal]")) {
  const input = document.getElementById(button.getAttribute("aria-controls") || "") as HTMLInputElement | null
  if (!input) continue
  const d = button.dataset
  const reveal = (shown: boolean) => {
    input.type = shown ? "text" : "password"
    button.textContent = shown ? d.hide! : d.show!
    button.setAttribute("aria-label", shown ? d.hideLabel! : d.showLabel!)
  }
  button.addEventListener("click", () => reveal(input.type === "password"))
  if (input.form) input.form.addEventListener("submit", () => reveal(false))
  button.hidden = false
}

function idle(): void {
  for (const form of document.querySelectorAll("form[aria-busy]")) form.removeAttribute("aria-busy")
  for (const button of document.querySelectorAll("button[data-busy]")) {
    button.removeAttribute("data-busy")
    button.removeAttribute("aria-disabled")
  }
}

document.addEventListener("submit", (event) => {
  const form = event.target
  if (!(form instanceof HTMLFormElement)) return
  const input = named(form)
  try {
    if (input?.value) sessionStorage.setItem(key, JSON.stringify({ form: form.id, value: input.value, at: Date.now() }))
    else sessionStorage.removeItem(key)
  } catch {}
  if (form.hasAttribute("data-passkey")) return
  if (form.getAttribute("aria-busy") === "true") {
    event.preventDefault()
    return
  }
  if (event.defaultPrevented) return
  const button = event.submitter || form.querySelector("button[type=submit]")
  form.setAttribute("aria-busy", "true")
  if (button) {
    button.setAttribute("data-busy", "")
    button.setAttribute("aria-disabled", "true")
  }
})
window.addEventListener("pageshow", (event) => {
  if (event.persisted) idle()
})
