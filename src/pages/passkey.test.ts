// The sign-in page's passkey form: markup, escaping, the CSP hash of its inline script, and the script's wire run
// against a small fake DOM (the Chromium + virtual authenticator tests live in test/e2e).
import { createHash } from "node:crypto"
import { describe, expect, it, vi } from "vitest"
import type { ResolvedProvider } from "../domain.js"
import { Auth } from "../index.js"
import { makeConfig } from "../../test/helpers.js"
import { MemoryAdapter } from "../adapters/memory.js"
import Passkey from "../providers/passkey.js"
import { de } from "./locales/index.js"
import { en, PASSKEY_SCRIPT, PASSKEY_SCRIPT_HASH, signInPage, signInPageHasScript, type SignInPageProps } from "./index.js"

const passkey = Passkey() as ResolvedProvider
const credentials = { id: "credentials", name: "Credentials", type: "credentials", credentials: { username: { label: "Username" } } } as unknown as ResolvedProvider

function page(overrides: Partial<SignInPageProps> = {}) {
  return signInPage({
    providers: [passkey], basePath: "/auth", origin: "http://localhost:3000", csrfToken: "csrf-token-1",
    callbackUrl: "http://localhost:3000/dash", theme: {}, locale: en, ...overrides,
  })
}

function render(overrides: Partial<SignInPageProps> = {}): string {
  return page(overrides).html
}

const MESSAGES = 'data-msg-unsupported="This browser does not support passkeys." data-msg-cancelled="The passkey request was cancelled or timed out." data-msg-registered="This passkey is already registered. Sign in with it instead." data-msg-failed="Passkey sign-in failed. Please try again."'

function scripts(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] as string)
}

describe("sign-in page: passkey form", () => {
  it("renders the form (stable ids), the e-mail field (labelled apart from the e-mail provider's) with autocomplete 'username webauthn', and the button named after the provider", () => {
    const html = render()
    expect(html).toContain(`<form id="passkey-form" action="http://localhost:3000/auth/callback/passkey" method="POST" novalidate data-webauthn-provider="passkey" data-base-path="/auth" data-csrf-token="csrf-token-1" data-callback-url="http://localhost:3000/dash" data-conditional="true" data-state="idle" ${MESSAGES}>`)
    expect(html).toContain('<label for="input-email-for-passkey">Email for your passkey</label><input id="input-email-for-passkey" name="email" type="text" placeholder="" autocomplete="username webauthn">')
    expect(html).toContain('<button id="passkey-signin" class="button" type="submit">Sign in with Passkey</button>')
    expect(html).toContain('<p id="passkey-error" class="error" role="alert" data-passkey-error hidden></p>')
    // No hidden csrfToken input: a form submitted without the script must not carry the token in a URL.
    expect(html).not.toContain('name="csrfToken"')
  })

  it("formFields and enableConditionalUI: false are honoured; a second passkey provider gets suffixed ids", () => {
    const custom = { ...passkey, id: "webauthn", name: "WebAuthn", enableConditionalUI: false, formFields: { handle: { label: "Handle", placeholder: "@you", autocomplete: "username webauthn" } } } as unknown as ResolvedProvider
    const html = render({ providers: [passkey, custom] })
    expect(html).toContain('<form id="passkey-form-webauthn" action="http://localhost:3000/auth/callback/webauthn" method="POST" novalidate data-webauthn-provider="webauthn"')
    expect(html).toMatch(/id="passkey-form-webauthn"[^>]*data-conditional="false"/)
    expect(html).toContain('<input id="input-handle-for-webauthn" name="handle" type="text" placeholder="@you" autocomplete="username webauthn">')
    expect(html).toContain('<button id="passkey-signin-webauthn" class="button" type="submit">Sign in with WebAuthn</button>')
    expect(scripts(html)).toHaveLength(1)
  })

  it("escapes a hostile provider name, id, callbackUrl, basePath and CSRF token in text and data- attributes", () => {
    const hostile = { ...passkey, id: 'pk"><script>x()</script>', name: "<img src=x onerror=alert(1)>" } as unknown as ResolvedProvider
    const html = render({
      providers: [hostile], basePath: '/a"b', csrfToken: 'tok"en', callbackUrl: `http://localhost:3000/x?a="b"&c='d'<e>`,
    })
    expect(html).not.toContain("<img")
    expect(html).toContain("Sign in with &lt;img src=x onerror=alert(1)&gt;</button>")
    expect(html).toContain('data-webauthn-provider="pk&quot;&gt;&lt;script&gt;x()&lt;/script&gt;"')
    expect(html).toContain('data-base-path="/a&quot;b"')
    expect(html).toContain('data-csrf-token="tok&quot;en"')
    expect(html).toContain('data-callback-url="http://localhost:3000/x?a=&quot;b&quot;&amp;c=&#39;d&#39;&lt;e&gt;"')
    // The only script is the constant one: nothing of the input reaches script text.
    expect(scripts(html)).toEqual([PASSKEY_SCRIPT])
  })

  it("next to an e-mail provider: its default field says it is for the passkey (en and de); ids stay unique", () => {
    const email = { id: "email", name: "Email", type: "email" } as unknown as ResolvedProvider
    const labels = (html: string) => [...html.matchAll(/<label for="([^"]+)">([^<]*)<\/label>/g)].map((m) => `${m[1]}: ${m[2]}`)
    expect(labels(render({ providers: [email, passkey] }))).toEqual(["input-email-for-email: Email", "input-email-for-passkey: Email for your passkey"])
    expect(labels(render({ providers: [email, passkey], locale: de }))).toEqual(["input-email-for-email: E-Mail", "input-email-for-passkey: E-Mail für Ihren Passkey"])
    const html = render({ providers: [email, passkey], locale: de })
    expect(html).toContain(">Mit E-Mail anmelden</button>")
    expect(html).not.toContain("aria-describedby") // the labels differ: nothing to tell apart
    // A formFields label the app set is its own, even "Email" (then the e-mail field is described by its button).
    const custom = { ...passkey, formFields: { email: { label: "Work email", autocomplete: "username webauthn" } } } as unknown as ResolvedProvider
    expect(labels(render({ providers: [email, custom] }))).toEqual(["input-email-for-email: Email", "input-email-for-passkey: Work email"])
  })

  it("two passkey providers with the default field: each field is described by its own form's button; ids that would coincide are made unique", () => {
    const second = { ...passkey, id: "webauthn", name: "WebAuthn" } as unknown as ResolvedProvider
    const html = render({ providers: [passkey, second] })
    expect(html).toContain('<input id="input-email-for-passkey" name="email" type="text" placeholder="" autocomplete="username webauthn" aria-describedby="passkey-signin">')
    expect(html).toContain('<input id="input-email-for-webauthn" name="email" type="text" placeholder="" autocomplete="username webauthn" aria-describedby="passkey-signin-webauthn">')
    // `input-a-for-b` + `-for-c` and `input-a` + `-for-b-for-c`: the same id, made unique by a suffix.
    const one = { id: "c", name: "One", type: "credentials", credentials: { "a-for-b": { label: "One" } } } as unknown as ResolvedProvider
    const two = { id: "b-for-c", name: "Two", type: "credentials", credentials: { a: { label: "Two" } } } as unknown as ResolvedProvider
    const ids = [...render({ providers: [one, two] }).matchAll(/\sid="([^"]+)"/g)].map((m) => m[1])
    expect(ids).toContain("input-a-for-b-for-c")
    expect(ids).toContain("input-a-for-b-for-c-2")
    expect(new Set(ids).size).toBe(ids.length)
  })

  it("the CSP allows exactly the inline script, by its sha256", () => {
    const [script] = scripts(render())
    const hash = createHash("sha256").update(script as string, "utf8").digest("base64")
    expect(PASSKEY_SCRIPT_HASH).toBe(`'sha256-${hash}'`)
    expect(page().csp).toContain(`script-src 'sha256-${hash}';`)
    expect(page().csp).toContain("connect-src 'self'")
    expect(PASSKEY_SCRIPT).toMatch(/^[\x20-\x7e\n]*$/) // ASCII: the hash cannot depend on an encoding
    expect(() => new Function(PASSKEY_SCRIPT)).not.toThrow()
  })

  it("without a passkey provider: no script, and the CSP allows none", () => {
    const html = render({ providers: [credentials] })
    expect(scripts(html)).toEqual([])
    expect(page({ providers: [credentials] }).csp).toContain("script-src 'none'")
    expect(page({ providers: [credentials] }).csp).not.toContain("connect-src")
    expect(signInPageHasScript([credentials])).toBe(false)
    expect(signInPageHasScript([credentials, passkey])).toBe(true)
  })

  it("GET /signin sends the CSP header that allows the script with a passkey provider, and script-src 'none' without", async () => {
    const withPasskey = makeConfig({ providers: [Passkey()], adapter: MemoryAdapter(), experimental: { enableWebAuthn: true }, logger: { error: () => {}, warn: () => {}, debug: () => {} } })
    const res = await Auth(new Request("http://localhost:3000/auth/signin"), withPasskey)
    const html = await res.text()
    expect(res.headers.get("content-security-policy")).toContain(`script-src ${PASSKEY_SCRIPT_HASH};`)
    expect(html).toContain('id="passkey-signin"')
    const plain = await Auth(new Request("http://localhost:3000/auth/signin"), makeConfig())
    expect(plain.headers.get("content-security-policy")).toContain("script-src 'none';")
  })
})

/** Just enough DOM for the page script: one passkey form with an e-mail input. */
function fakePage(options: { email?: string; conditional?: boolean; conditionalAvailable?: boolean; optionsAction?: "register" | "authenticate"; returnedUrl?: string } = {}) {
  const bytes = (text: string) => new Uint8Array(Buffer.from(text)).buffer
  const b64 = (text: string) => Buffer.from(text).toString("base64url")
  let submit: ((event: { preventDefault(): void }) => void) | undefined
  const input = { name: "email", value: options.email ?? "" }
  const button = { disabled: false }
  const message = { textContent: "", hidden: true }
  const form = {
    dataset: { webauthnProvider: "passkey", basePath: "/auth", csrfToken: "csrf-1", callbackUrl: "http://localhost/dash", conditional: String(options.conditional ?? false), state: "idle" } as Record<string, string>,
    querySelector: (selector: string) => (selector === "button" ? button : selector === "[data-passkey-error]" ? message : selector.includes("webauthn") ? input : null),
    querySelectorAll: () => [input],
    addEventListener: (_type: string, listener: typeof submit) => { submit = listener },
  }
  const requests: { url: string; init?: RequestInit }[] = []
  const action = options.optionsAction ?? "authenticate"
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    requests.push({ url, init })
    if (url.includes("/webauthn-options/")) {
      const optionsJson = action === "register"
        ? { challenge: b64("c1"), rp: { name: "x" }, user: { id: b64("u1"), name: "a", displayName: "a" }, pubKeyCredParams: [] }
        : { challenge: b64("c1"), allowCredentials: [{ id: b64("cred"), type: "public-key" }] }
      return new Response(JSON.stringify({ action, options: optionsJson }))
    }
    return new Response(JSON.stringify({ url: options.returnedUrl ?? "http://localhost/dash" }))
  })
  const assertion = {
    id: b64("cred"), rawId: bytes("cred"), type: "public-key", authenticatorAttachment: "platform", getClientExtensionResults: () => ({}),
    response: { clientDataJSON: bytes("cdj"), authenticatorData: bytes("ad"), signature: bytes("sig"), userHandle: bytes("u1") },
  }
  const attestation = {
    id: b64("new"), rawId: bytes("new"), type: "public-key", authenticatorAttachment: null, getClientExtensionResults: () => ({}),
    response: { clientDataJSON: bytes("cdj"), attestationObject: bytes("ao"), getTransports: () => ["internal"], getPublicKeyAlgorithm: () => -7, getPublicKey: () => bytes("pk"), getAuthenticatorData: () => bytes("ad") },
  }
  const credentials = { get: vi.fn(async () => assertion), create: vi.fn(async () => attestation) }
  const PublicKeyCredential = { isConditionalMediationAvailable: async () => options.conditionalAvailable ?? true }
  const window = { PublicKeyCredential, location: { href: "http://localhost/auth/signin" } }
  const document = { querySelectorAll: () => [form] }
  new Function("window", "document", "navigator", "fetch", "PublicKeyCredential", PASSKEY_SCRIPT)(window, document, { credentials }, fetch, PublicKeyCredential)
  return { form, window, requests, credentials, message, submit: () => submit?.({ preventDefault: () => {} }) }
}

describe("the page script (fake DOM)", () => {
  it("button with no e-mail typed: options with action=authenticate, get(), then the callback form and navigation to the returned url", async () => {
    const page = fakePage()
    page.submit()
    await vi.waitFor(() => expect(page.window.location.href).toBe("http://localhost/dash"))
    expect(page.requests.map((r) => r.url)).toEqual(["/auth/webauthn-options/passkey?action=authenticate", "/auth/callback/passkey"])
    const post = page.requests[1]?.init as RequestInit
    expect(post.method).toBe("POST")
    expect((post.headers as Record<string, string>)["x-auth-return-redirect"]).toBe("1")
    const body = new URLSearchParams(String(post.body))
    expect(body.get("action")).toBe("authenticate")
    expect(body.get("csrfToken")).toBe("csrf-1")
    expect(body.get("callbackUrl")).toBe("http://localhost/dash")
    expect(JSON.parse(body.get("data") as string)).toEqual({
      id: "Y3JlZA", rawId: "Y3JlZA", type: "public-key", authenticatorAttachment: "platform", clientExtensionResults: {},
      response: { clientDataJSON: "Y2Rq", authenticatorData: "YWQ", signature: "c2ln", userHandle: "dTE" },
    })
    expect(page.form.dataset.state).toBe("done")
  })

  it("e-mail typed: the server picks; on register, create() and the registration JSON with transports", async () => {
    const page = fakePage({ email: "ada@example.com", optionsAction: "register" })
    page.submit()
    await vi.waitFor(() => expect(page.window.location.href).toBe("http://localhost/dash"))
    expect(page.requests[0]?.url).toBe("/auth/webauthn-options/passkey?email=ada%40example.com")
    const body = new URLSearchParams(String(page.requests[1]?.init?.body))
    expect(body.get("action")).toBe("register")
    expect(body.get("email")).toBe("ada@example.com")
    expect(JSON.parse(body.get("data") as string).response).toEqual({ clientDataJSON: "Y2Rq", attestationObject: "YW8", transports: ["internal"], publicKeyAlgorithm: -7, publicKey: "cGs", authenticatorData: "YWQ" })
    const call = page.credentials.create.mock.calls[0] as unknown as [CredentialCreationOptions]
    expect(Buffer.from(call[0].publicKey?.user.id as ArrayBuffer).toString()).toBe("u1")
  })

  it("the user cancels: the message is shown, the button works again, nothing is posted", async () => {
    const page = fakePage()
    page.credentials.get.mockRejectedValueOnce(Object.assign(new Error("cancelled"), { name: "NotAllowedError" }))
    page.submit()
    await vi.waitFor(() => expect(page.form.dataset.state).toBe("error"))
    expect(page.message.hidden).toBe(false)
    expect(page.message.textContent).toContain("cancelled")
    expect(page.requests).toHaveLength(1)
  })

  it("conditional UI: on load, an autofill request (mediation conditional, no allow list) that signs in when a passkey is picked", async () => {
    const page = fakePage({ conditional: true })
    await vi.waitFor(() => expect(page.window.location.href).toBe("http://localhost/dash"))
    const call = page.credentials.get.mock.calls[0] as unknown as [CredentialRequestOptions]
    expect(call[0].mediation).toBe("conditional")
    expect(call[0].publicKey?.allowCredentials).toEqual([])
    expect(page.requests[0]?.url).toBe("/auth/webauthn-options/passkey?action=authenticate")
  })

  it("CL-01: a returned url that is not http(s) (javascript:, data:) is not assigned to location: the error page instead", async () => {
    for (const returnedUrl of ["javascript:alert(document.cookie)", " JaVaScRiPt:alert(1)", "data:text/html,x"]) {
      const page = fakePage({ returnedUrl })
      page.submit()
      await vi.waitFor(() => expect(page.form.dataset.state).toBe("done"))
      expect(page.window.location.href).toBe("/auth/error?error=Configuration")
    }
  })

  it("conditional UI not available, or disabled: no request on load", async () => {
    for (const page of [fakePage({ conditional: true, conditionalAvailable: false }), fakePage({ conditional: false })]) {
      await new Promise((resolve) => setTimeout(resolve, 10))
      expect(page.requests).toEqual([])
      expect(page.form.dataset.state).toBe("idle")
    }
  })
})
