// The sign-in page's form script: a submitted form's button shows that it is working, and password fields get their
// show/hide button. Plain browser JS in a constant, so its CSP hash is computed once; it reads only data- attributes.
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
 */
export const FORM_SCRIPT = `(() => {
  "use strict";
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
    if (!(form instanceof HTMLFormElement) || form.hasAttribute("data-passkey")) return;
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
