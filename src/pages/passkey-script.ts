// The sign-in page's one inline script: passkey sign-in from the button and from the e-mail field's autofill.
// Plain browser JS in a constant, so its CSP hash is computed once; it reads everything from the form's data-
// attributes (nothing is interpolated into it). The same wire as gatehouse/webauthn, kept small for the page.
import { createHash } from "node:crypto"

/**
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
 */
export const PASSKEY_SCRIPT = `(() => {
  "use strict";
  const toB64 = (buffer) => {
    const bytes = new Uint8Array(buffer);
    let text = "";
    for (let i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]);
    return btoa(text).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  };
  const fromB64 = (value) => {
    const base64 = value.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/");
    const text = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, "="));
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    return bytes.buffer;
  };
  const descriptors = (list) => (list || []).map((item) => ({ ...item, id: fromB64(item.id) }));
  const optional = (read) => { try { return read() ?? undefined; } catch (error) { return undefined; } };
  const encode = (credential) => {
    const r = credential.response;
    const response = { clientDataJSON: toB64(r.clientDataJSON) };
    if (r.attestationObject) {
      response.attestationObject = toB64(r.attestationObject);
      if (r.getTransports) response.transports = optional(() => r.getTransports());
      if (r.getPublicKeyAlgorithm) response.publicKeyAlgorithm = optional(() => r.getPublicKeyAlgorithm());
      const key = r.getPublicKey && optional(() => r.getPublicKey());
      if (key) response.publicKey = toB64(key);
      const data = r.getAuthenticatorData && optional(() => r.getAuthenticatorData());
      if (data) response.authenticatorData = toB64(data);
    } else {
      response.authenticatorData = toB64(r.authenticatorData);
      response.signature = toB64(r.signature);
      if (r.userHandle && r.userHandle.byteLength) response.userHandle = toB64(r.userHandle);
    }
    return {
      id: credential.id, rawId: toB64(credential.rawId), type: credential.type, response,
      clientExtensionResults: credential.getClientExtensionResults(),
      authenticatorAttachment: credential.authenticatorAttachment || undefined,
    };
  };
  let pending = null;
  const setup = (form) => {
    const d = form.dataset;
    const base = d.basePath + "/";
    const id = encodeURIComponent(d.webauthnProvider);
    const register = d.registerForm ? document.getElementById(d.registerForm) : null;
    const parts = [form, register].filter(Boolean).map((f) => ({ form: f, button: f.querySelector("button[type=submit]"), message: f.querySelector("[data-passkey-error]") }));
    const show = (part, text) => { part.message.textContent = text; part.message.hidden = false; };
    if (!window.PublicKeyCredential || !navigator.credentials) {
      parts.forEach((part) => { part.button.disabled = true; });
      show(parts[0], d.msgUnsupported || "This browser does not support passkeys.");
      return;
    }
    const fields = (part) => {
      const values = new URLSearchParams();
      if (part && part.form !== form) for (const input of part.form.querySelectorAll("input[name]")) if (input.value) values.set(input.name, input.value);
      return values;
    };
    const busy = (part, on) => {
      part.button.disabled = on;
      if (on) part.button.setAttribute("data-busy", ""); else part.button.removeAttribute("data-busy");
    };
    const run = async (part) => {
      if (pending) pending.abort();
      const controller = new AbortController();
      pending = controller;
      const typed = fields(part);
      const query = typed.toString() === "" ? new URLSearchParams({ action: "authenticate" }) : typed;
      const res = await fetch(base + "webauthn-options/" + id + "?" + query, { headers: { accept: "application/json" }, credentials: "same-origin", cache: "no-store" });
      const body = await res.json().catch(() => null);
      if (!res.ok || !body || !body.options) throw new Error("no WebAuthn options (" + res.status + ")");
      const o = body.options;
      const conditional = !part;
      const credential = body.action === "register"
        ? await navigator.credentials.create({ signal: controller.signal, publicKey: { ...o, challenge: fromB64(o.challenge), user: { ...o.user, id: fromB64(o.user.id) }, excludeCredentials: descriptors(o.excludeCredentials) } })
        : await navigator.credentials.get({ signal: controller.signal, mediation: conditional ? "conditional" : "optional", publicKey: { ...o, challenge: fromB64(o.challenge), allowCredentials: conditional ? [] : descriptors(o.allowCredentials) } });
      if (pending === controller) pending = null;
      if (!credential) throw new Error("no credential");
      d.state = "busy";
      busy(part || parts[0], true);
      const post = body.action === "register" ? fields(part) : new URLSearchParams();
      post.set("action", body.action);
      post.set("data", JSON.stringify(encode(credential)));
      post.set("csrfToken", d.csrfToken);
      post.set("callbackUrl", d.callbackUrl);
      const answer = await fetch(base + "callback/" + id, { method: "POST", credentials: "same-origin", headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" }, body: post });
      const out = await answer.json().catch(() => null);
      d.state = "done";
      const next = out && typeof out.url === "string" ? optional(() => new URL(out.url, window.location.href)) : undefined;
      window.location.href = next && (next.protocol === "https:" || next.protocol === "http:") ? next.href : base + "error?error=Configuration";
    };
    let autofill = false;
    const start = (part) => {
      d.state = part ? "busy" : "waiting";
      if (part) {
        parts.forEach((p) => { p.message.hidden = true; });
        busy(part, true);
      }
      run(part).catch((error) => {
        const name = error && error.name;
        if (name === "AbortError") return;
        if (!part) { if (d.state === "waiting") d.state = "idle"; return; }
        busy(part, false);
        d.state = "error";
        show(part, name === "NotAllowedError" ? d.msgCancelled || "The passkey request was cancelled or timed out." : name === "InvalidStateError" ? d.msgRegistered || "This passkey is already registered. Sign in with it instead." : d.msgFailed || "Passkey sign-in failed. Please try again.");
        if (autofill) start(null);
      });
    };
    parts.forEach((part) => part.form.addEventListener("submit", (event) => { event.preventDefault(); start(part); }));
    if (d.conditional === "true" && document.querySelector('input[autocomplete~="webauthn"]') && typeof PublicKeyCredential.isConditionalMediationAvailable === "function") {
      PublicKeyCredential.isConditionalMediationAvailable().then((available) => {
        if (available && d.state === "idle") { autofill = true; start(null); }
      }, () => {});
    }
  };
  document.querySelectorAll("form[data-webauthn-provider]").forEach(setup);
})();`

/** The script's CSP source: `'sha256-…'` of its exact text. */
export const PASSKEY_SCRIPT_HASH = `'sha256-${createHash("sha256").update(PASSKEY_SCRIPT, "utf8").digest("base64")}'`
