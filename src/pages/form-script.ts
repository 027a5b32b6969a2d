// The sign-in page's form script: a submitted form's button shows that it is working, password fields get their
// show/hide button, and a failed sign-in gets the identifier back. Plain browser JS in a constant, so its CSP hash is
// computed once; it reads data- attributes, the URL's path and this tab's sessionStorage.
import { createHash } from "node:crypto"

/**
 * - `button[data-reveal]` (rendered `hidden`, so a page without scripts shows no dead control): shown, and a click
 *   switches the field named by `aria-controls` between password and text, with the text and accessible name from
 *   `data-show`/`data-hide` and `data-show-label`/`data-hide-label`. Submitting the form hides the password again,
 *   so password managers see a password field.
 * - A form submitted (not the passkey forms, `[data-passkey]`, whose own script shows their state): `aria-busy="true"` on the form,
 *   `data-busy` and `aria-disabled="true"` on the button that submitted it (the CSS draws a spinner); a second submit
 *   while busy is dropped. The button is not `disabled`: that would take it out of the submitted form and the focus
 *   order. Coming back through the back/forward cache clears the busy state.
 * - The identifier kept across a failed sign-in, in the browser only (the server sets no cookie on a failure): as any
 *   form is submitted, the value of its `input[data-identifier]` (the username or e-mail field; the page never marks a
 *   password or hidden field, and the script checks the type again) goes into this tab's sessionStorage under a key
 *   for this page's path, with the form's id and the time; a form without one removes the entry. On load the entry is
 *   read and removed at once; when the page shows the `?error=` banner (`#signin-error`) and the entry is under five
 *   minutes old, its value goes back into that form's field as `input.value` (text, never HTML), the form's disclosure
 *   opens, and the focus goes to its password field, else the identifier field. Without script nothing is kept.
 */
export const FORM_SCRIPT = `(() => {
  "use strict";
  const key = "gatehouse.signin-identifier:" + location.pathname;
  const named = (form) => {
    const input = form.querySelector("input[data-identifier]");
    return input && input.type !== "password" && input.type !== "hidden" ? input : null;
  };
  let saved = null;
  try {
    saved = JSON.parse(sessionStorage.getItem(key) || "null");
    sessionStorage.removeItem(key);
  } catch {}
  const failed = saved && document.getElementById(saved.form);
  if (failed instanceof HTMLFormElement && document.getElementById("signin-error") && typeof saved.value === "string" && Date.now() - saved.at < 300000) {
    const input = named(failed);
    if (input) {
      input.value = saved.value;
      const details = failed.closest("details");
      if (details) details.open = true;
      (failed.querySelector("input[type=password]") || input).focus();
    }
  }
  document.querySelectorAll("button[data-reveal]").forEach((button) => {
    const input = document.getElementById(button.getAttribute("aria-controls") || "");
    if (!input) return;
    const d = button.dataset;
    const reveal = (shown) => {
      input.type = shown ? "text" : "password";
      button.textContent = shown ? d.hide : d.show;
      button.setAttribute("aria-label", shown ? d.hideLabel : d.showLabel);
    };
    button.addEventListener("click", () => reveal(input.type === "password"));
    if (input.form) input.form.addEventListener("submit", () => reveal(false));
    button.hidden = false;
  });
  const idle = () => {
    document.querySelectorAll("form[aria-busy]").forEach((form) => form.removeAttribute("aria-busy"));
    document.querySelectorAll("button[data-busy]").forEach((button) => {
      button.removeAttribute("data-busy");
      button.removeAttribute("aria-disabled");
    });
  };
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    const input = named(form);
    try {
      if (input && input.value) sessionStorage.setItem(key, JSON.stringify({ form: form.id, value: input.value, at: Date.now() }));
      else sessionStorage.removeItem(key);
    } catch {}
    if (form.hasAttribute("data-passkey")) return;
    if (form.getAttribute("aria-busy") === "true") { event.preventDefault(); return; }
    if (event.defaultPrevented) return;
    const button = event.submitter || form.querySelector("button[type=submit]");
    form.setAttribute("aria-busy", "true");
    if (button) {
      button.setAttribute("data-busy", "");
      button.setAttribute("aria-disabled", "true");
    }
  });
  window.addEventListener("pageshow", (event) => { if (event.persisted) idle(); });
})();`

/** The script's CSP source: `'sha256-…'` of its exact text. */
export const FORM_SCRIPT_HASH = `'sha256-${createHash("sha256").update(FORM_SCRIPT, "utf8").digest("base64")}'`
