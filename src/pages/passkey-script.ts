// The sign-in page's one inline script: passkey sign-in from the button and from the e-mail field's autofill.
// Plain browser JS in a constant, so its CSP hash is computed once; it reads everything from the form's data-
// attributes (nothing is interpolated into it). The same wire as gatehouse/webauthn, kept small for the page.
import { createHash } from "node:crypto"

/**
 * For each `form[data-webauthn-provider]`: submit (the button, or Enter) aborts a waiting autofill request, asks
 * `{basePath}/webauthn-options/<id>` (with the typed fields, so the server picks register or authenticate; with
 * `action=authenticate` when nothing is typed), runs the ceremony, posts the callback with X-Auth-Return-Redirect
 * and goes to the returned URL when it is http(s) (the callbackUrl, or signin?error=…; anything else goes to the
 * error page, so a script URL never reaches location). With `data-conditional="true"` it arms an
 * autofill (conditional) request on load. `data-state`: idle | waiting (autofill armed) | busy | error | done.
 * The messages it shows come from `data-msg-unsupported`, `-cancelled`, `-registered` and `-failed` (the page
 * locale), with English as the fallback.
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
    const button = form.querySelector("button");
    const message = form.querySelector("[data-passkey-error]");
    const show = (text) => { message.textContent = text; message.hidden = false; };
    if (!window.PublicKeyCredential || !navigator.credentials) {
      button.disabled = true;
      show(d.msgUnsupported || "This browser does not support passkeys.");
      return;
    }
    const fields = () => {
      const values = new URLSearchParams();
      for (const input of form.querySelectorAll("input[name]")) if (input.value) values.set(input.name, input.value);
      return values;
    };
    const run = async (conditional) => {
      if (pending) pending.abort();
      const controller = new AbortController();
      pending = controller;
      const typed = fields();
      const query = conditional || typed.toString() === "" ? new URLSearchParams({ action: "authenticate" }) : typed;
      const res = await fetch(base + "webauthn-options/" + id + "?" + query, { headers: { accept: "application/json" }, credentials: "same-origin", cache: "no-store" });
      const body = await res.json().catch(() => null);
      if (!res.ok || !body || !body.options) throw new Error("no WebAuthn options (" + res.status + ")");
      const o = body.options;
      const credential = body.action === "register"
        ? await navigator.credentials.create({ signal: controller.signal, publicKey: { ...o, challenge: fromB64(o.challenge), user: { ...o.user, id: fromB64(o.user.id) }, excludeCredentials: descriptors(o.excludeCredentials) } })
        : await navigator.credentials.get({ signal: controller.signal, mediation: conditional ? "conditional" : "optional", publicKey: { ...o, challenge: fromB64(o.challenge), allowCredentials: conditional ? [] : descriptors(o.allowCredentials) } });
      if (pending === controller) pending = null;
      if (!credential) throw new Error("no credential");
      d.state = "busy";
      button.disabled = true;
      const post = fields();
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
    const start = (conditional) => {
      d.state = conditional ? "waiting" : "busy";
      if (!conditional) { button.disabled = true; message.hidden = true; }
      run(conditional).catch((error) => {
        const name = error && error.name;
        if (name === "AbortError") return;
        if (conditional) { if (d.state === "waiting") d.state = "idle"; return; }
        button.disabled = false;
        d.state = "error";
        show(name === "NotAllowedError" ? d.msgCancelled || "The passkey request was cancelled or timed out." : name === "InvalidStateError" ? d.msgRegistered || "This passkey is already registered. Sign in with it instead." : d.msgFailed || "Passkey sign-in failed. Please try again.");
        if (autofill) start(true);
      });
    };
    form.addEventListener("submit", (event) => { event.preventDefault(); start(false); });
    if (d.conditional === "true" && form.querySelector('input[autocomplete~="webauthn"]') && typeof PublicKeyCredential.isConditionalMediationAvailable === "function") {
      PublicKeyCredential.isConditionalMediationAvailable().then((available) => {
        if (available && d.state === "idle") { autofill = true; start(true); }
      }, () => {});
    }
  };
  document.querySelectorAll("form[data-webauthn-provider]").forEach(setup);
})();`

/** The script's CSP source: `'sha256-…'` of its exact text. */
export const PASSKEY_SCRIPT_HASH = `'sha256-${createHash("sha256").update(PASSKEY_SCRIPT, "utf8").digest("base64")}'`
