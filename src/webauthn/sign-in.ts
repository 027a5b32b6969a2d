// The passkey sign-in over the wire (same as @auth/core): GET /webauthn-options/<id> → ceremony → POST /callback/<id>.
// gatehouse/client's signIn runs it for a provider of type "webauthn"; it imports client/config.ts only (no cycle).
import { authUrl, isRecord, readJson } from "../client/config.js"
import { startAuthentication, startRegistration } from "./ceremony.js"
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  WebAuthnAction,
} from "./types.js"

/** What the browser side of a passkey sign-in needs besides the provider id. */
export interface WebAuthnSignInInput {
  /** The provider's form fields (`email`, …): the options query and the callback form both carry them. */
  fields: Record<string, string>
  /** Asked of the server; without it the server picks (register for a new e-mail, else authenticate). */
  action?: WebAuthnAction
  /** Autofill sign-in: authenticate with mediation "conditional". */
  conditional: boolean
  signal?: AbortSignal
  callbackUrl: string
  /** The CSRF token's source; none for a server that takes no token (gatehouse/sveltekit's). */
  csrfToken?: () => Promise<string>
}

/**
 * How the attempt ended: the callback was posted (its status and JSON body, `{ url }`), or it stopped before, with
 * `error` `WebAuthnOptionsError` (the options request was refused; `code` is the server's message) or
 * `WebAuthnCeremonyError` (the browser refused; `code` is the DOMException name, `NotAllowedError` on cancel).
 */
export type WebAuthnAttempt =
  | { posted: true; status: number; body: unknown }
  | {
      posted: false
      error: "WebAuthnOptionsError" | "WebAuthnCeremonyError"
      code: string | undefined
      status: number
      cause?: unknown
    }

type OptionsAnswer =
  | { action: "register"; options: PublicKeyCredentialCreationOptionsJSON }
  | { action: "authenticate"; options: PublicKeyCredentialRequestOptionsJSON }

/** Narrows the options answer: `{ action, options }` with a challenge (the rest is the browser's to check). */
function assertOptionsAnswer(body: unknown): OptionsAnswer | undefined {
  if (!isRecord(body) || !isRecord(body.options) || typeof body.options.challenge !== "string") return undefined
  if (body.action === "register" && isRecord(body.options.user) && typeof body.options.user.id === "string") {
    return { action: "register", options: body.options as unknown as PublicKeyCredentialCreationOptionsJSON }
  }
  if (body.action === "authenticate")
    return { action: "authenticate", options: body.options as unknown as PublicKeyCredentialRequestOptionsJSON }
  return undefined
}

function errorName(cause: unknown): string {
  return isRecord(cause) && typeof cause.name === "string" ? cause.name : "Error"
}

/** Runs one passkey sign-in for `providerId`; network failures reject, as the other sign-ins' do. */
export async function webAuthnSignIn(providerId: string, input: WebAuthnSignInInput): Promise<WebAuthnAttempt> {
  const id = encodeURIComponent(providerId)
  // Autofill can only authenticate, and the user has typed nothing yet.
  const query = new URLSearchParams(input.conditional ? {} : input.fields)
  const action = input.conditional ? "authenticate" : input.action
  if (action) query.set("action", action)
  const search = query.toString()
  const res = await fetch(`${authUrl(`webauthn-options/${id}`)}${search ? `?${search}` : ""}`, {
    headers: { accept: "application/json" },
    credentials: "same-origin",
    cache: "no-store",
  })
  const body = await readJson(res)
  const answer = res.ok ? assertOptionsAnswer(body) : undefined
  if (!answer) {
    const message = isRecord(body) && typeof body.error === "string" ? body.error : undefined
    return { posted: false, error: "WebAuthnOptionsError", code: message, status: res.status }
  }
  let data: string
  try {
    const response =
      answer.action === "register"
        ? await startRegistration(answer.options, { signal: input.signal })
        : await startAuthentication(answer.options, { conditional: input.conditional, signal: input.signal })
    data = JSON.stringify(response)
  } catch (cause) {
    return { posted: false, error: "WebAuthnCeremonyError", code: errorName(cause), status: res.status, cause }
  }
  const form = new URLSearchParams(input.fields)
  form.set("action", answer.action)
  form.set("data", data)
  if (input.csrfToken) form.set("csrfToken", await input.csrfToken())
  form.set("callbackUrl", input.callbackUrl)
  const posted = await fetch(authUrl(`callback/${id}`), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" },
    body: form,
    credentials: "same-origin",
  })
  return { posted: true, status: posted.status, body: await readJson(posted) }
}
