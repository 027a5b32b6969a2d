// The sign-in page's passkey form: markup, escaping, the CSP hash of its inline script, and the script's wire run
// against a small fake DOM (the Chromium + virtual authenticator tests live in test/e2e).
import { createHash } from "node:crypto"
import { describe, expect, it, vi } from "vitest"
import type { ResolvedProvider } from "../pipeline-types.js"
import { Auth } from "../index.js"
import { makeConfig } from "../../test/support/flow-kit.js"
import { MemoryAdapter } from "../adapters/memory.js"
import { kindOf } from "../flows/registry.js"
import Passkey from "../providers/passkey.js"
import { de, en } from "./locales/index.js"
import { FORM_SCRIPT, FORM_SCRIPT_HASH, PASSKEY_SCRIPT, PASSKEY_SCRIPT_HASH } from "./scripts.generated.js"
import { signInPage, signInPageHasScript, type SignInPageProps } from "./signin.js"

const passkey = Passkey() as ResolvedProvider
const credentials = {
  id: "credentials",
  name: "Credentials",
  type: "credentials",
  credentials: { username: { label: "Username" } },
} as unknown as ResolvedProvider

function page(overrides: Partial<SignInPageProps> = {}) {
  return signInPage({
    providers: [passkey],
    basePath: "/auth",
    origin: "http://localhost:3000",
    csrfToken: "csrf-token-1",
    callbackUrl: "http://localhost:3000/dash",
    theme: {},
    locale: en,
    kindOf,
    ...overrides,
  })
}

function render(overrides: Partial<SignInPageProps> = {}): string {
  return page(overrides).html
}

const MESSAGES =
  'data-msg-unsupported="This browser does not support passkeys." data-msg-cancelled="The passkey request was cancelled or timed out." data-msg-registered="This passkey is already registered. Sign in with it instead." data-msg-failed="Passkey sign-in failed. Please try again."'

function scripts(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] as string)
}

describe("sign-in page: passkey form", () => {
  it("renders the sign-in form as one button (stable ids) with no e-mail field, and the registration form (e-mail with autocomplete 'username webauthn', required) in a 'Create a passkey' disclosure", () => {
    const html = render()
    expect(html).toContain(
      `<form id="passkey-form" action="http://localhost:3000/auth/callback/passkey" method="POST" novalidate data-passkey data-webauthn-provider="passkey" data-base-path="/auth" data-csrf-token="csrf-token-1" data-callback-url="http://localhost:3000/dash" data-conditional="true" data-register-form="passkey-register" data-state="idle" ${MESSAGES}><button id="passkey-signin" class="button primary" type="submit"><span>Sign in with a passkey</span></button><p id="passkey-error" class="error" role="alert" data-passkey-error hidden></p></form>`,
    )
    expect(html).toContain(
      '<details class="create"><summary>Create a passkey</summary><form id="passkey-register" action="http://localhost:3000/auth/callback/passkey" method="POST" data-passkey>',
    )
    expect(html).toContain(
      '<label for="input-email-for-passkey">Email for your passkey</label><input id="input-email-for-passkey" name="email" type="text" autocomplete="username webauthn" required>',
    )
    expect(html).toContain(
      '<button id="passkey-register-button" class="button" type="submit">Create a passkey</button><p id="passkey-register-error" class="error" role="alert" data-passkey-error hidden></p></form></details>',
    )
    // No hidden csrfToken input: a form submitted without the script must not carry the token in a URL.
    expect(html).not.toContain('name="csrfToken"')
  })

  it("with an e-mail or credentials form: that form's button is the primary action, the passkey button a secondary one with its mark; autofill offers passkeys in the main form's identifier field", () => {
    const email = { id: "email", name: "Email", type: "email" } as unknown as ResolvedProvider
    const html = render({ providers: [passkey, credentials, email] })
    expect(html.match(/class="button primary"/g)).toHaveLength(1)
    expect(html).toContain(
      '<button id="signin-button-credentials" class="button primary" type="submit">Sign in with Credentials</button>',
    )
    expect(html).toMatch(
      /<button id="passkey-signin" class="button" type="submit"><span class="mark"><svg [^>]*aria-hidden="true"[^>]*>.*?<\/svg><\/span><span>Sign in with a passkey<\/span><\/button>/,
    )
    expect(html).toContain(
      '<input id="input-username-for-credentials" name="username" type="text" autocomplete="username webauthn" data-identifier>',
    )
    // The registration field asks for a new passkey's address: no passkeys offered there.
    expect(html).toContain(
      '<input id="input-email-for-passkey" name="email" type="text" autocomplete="username" required>',
    )
    expect(html.indexOf('id="signin-form-credentials"')).toBeLessThan(html.indexOf('id="passkey-form"'))
  })

  it("formFields and enableConditionalUI: false are honoured; a second passkey provider gets suffixed ids and its own name", () => {
    const custom = {
      ...passkey,
      id: "webauthn",
      name: "Security key",
      enableConditionalUI: false,
      formFields: { handle: { label: "Handle", placeholder: "@you", autocomplete: "username webauthn" } },
    } as unknown as ResolvedProvider
    const html = render({ providers: [passkey, custom] })
    expect(html).toContain(
      '<form id="passkey-form-webauthn" action="http://localhost:3000/auth/callback/webauthn" method="POST" novalidate data-passkey data-webauthn-provider="webauthn"',
    )
    expect(html).toMatch(
      /id="passkey-form-webauthn"[^>]*data-conditional="false" data-register-form="passkey-register-webauthn"/,
    )
    expect(html).toContain(
      '<input id="input-handle-for-webauthn" name="handle" type="text" placeholder="@you" autocomplete="username webauthn">',
    )
    expect(html).toMatch(
      /<button id="passkey-signin-webauthn" class="button" type="submit"><span class="mark">.*?<\/span><span>Sign in with Security key<\/span><\/button>/,
    )
    expect(html).toContain(
      '<button id="passkey-register-button-webauthn" class="button" type="submit">Create a passkey</button>',
    )
    expect(html.match(/class="button primary"/g)).toHaveLength(1)
    expect(scripts(html)).toEqual([FORM_SCRIPT, PASSKEY_SCRIPT])
  })

  it("escapes a hostile provider name, id, callbackUrl, basePath and CSRF token in text and data- attributes", () => {
    const hostile = {
      ...passkey,
      id: 'pk"><script>x()</script>',
      name: "<img src=x onerror=alert(1)>",
    } as unknown as ResolvedProvider
    const html = render({
      providers: [hostile],
      basePath: '/a"b',
      csrfToken: 'tok"en',
      callbackUrl: `http://localhost:3000/x?a="b"&c='d'<e>`,
    })
    expect(html).not.toContain("<img")
    expect(html).toContain("<span>Sign in with &lt;img src=x onerror=alert(1)&gt;</span></button>")
    expect(html).toContain('data-webauthn-provider="pk&quot;&gt;&lt;script&gt;x()&lt;/script&gt;"')
    expect(html).toContain('data-base-path="/a&quot;b"')
    expect(html).toContain('data-csrf-token="tok&quot;en"')
    expect(html).toContain('data-callback-url="http://localhost:3000/x?a=&quot;b&quot;&amp;c=&#39;d&#39;&lt;e&gt;"')
    // The only scripts are the constant ones: nothing of the input reaches script text.
    expect(scripts(html)).toEqual([FORM_SCRIPT, PASSKEY_SCRIPT])
  })

  it("next to an e-mail provider: its default field says it is for the passkey (en and de); ids stay unique", () => {
    const email = { id: "email", name: "Email", type: "email" } as unknown as ResolvedProvider
    const labels = (html: string) =>
      [...html.matchAll(/<label for="([^"]+)">([^<]*)<\/label>/g)].map((m) => `${m[1]}: ${m[2]}`)
    expect(labels(render({ providers: [email, passkey] }))).toEqual([
      "input-email-for-email: Email",
      "input-email-for-passkey: Email for your passkey",
    ])
    expect(labels(render({ providers: [email, passkey], locale: de }))).toEqual([
      "input-email-for-email: E-Mail",
      "input-email-for-passkey: E-Mail für Ihren Passkey",
    ])
    const html = render({ providers: [email, passkey], locale: de })
    expect(html).toContain(">Mit E-Mail anmelden</button>")
    expect(html).toContain("<span>Mit Passkey anmelden</span>")
    expect(html).toContain("<summary>Passkey erstellen</summary>")
    expect(html).not.toContain("aria-describedby") // the labels differ: nothing to tell apart
    // A formFields label the app set is its own, even "Email" (then the e-mail field is described by its button).
    const custom = {
      ...passkey,
      formFields: { email: { label: "Work email", autocomplete: "username webauthn" } },
    } as unknown as ResolvedProvider
    expect(labels(render({ providers: [email, custom] }))).toEqual([
      "input-email-for-email: Email",
      "input-email-for-passkey: Work email",
    ])
  })

  it("two passkey providers with the default field: each field is described by its own registration button; ids that would coincide are made unique", () => {
    const second = {
      ...passkey,
      id: "webauthn",
      name: "WebAuthn",
      enableConditionalUI: false,
    } as unknown as ResolvedProvider
    const html = render({ providers: [passkey, second] })
    expect(html).toContain(
      '<input id="input-email-for-passkey" name="email" type="text" autocomplete="username webauthn" required aria-describedby="passkey-register-button">',
    )
    expect(html).toContain(
      '<input id="input-email-for-webauthn" name="email" type="text" autocomplete="username webauthn" required aria-describedby="passkey-register-button-webauthn">',
    )
    // `input-a-for-b` + `-for-c` and `input-a` + `-for-b-for-c`: the same id, made unique by a suffix.
    const one = {
      id: "c",
      name: "One",
      type: "credentials",
      credentials: { "a-for-b": { label: "One" } },
    } as unknown as ResolvedProvider
    const two = {
      id: "b-for-c",
      name: "Two",
      type: "credentials",
      credentials: { a: { label: "Two" } },
    } as unknown as ResolvedProvider
    const ids = [...render({ providers: [one, two] }).matchAll(/\sid="([^"]+)"/g)].map((m) => m[1])
    expect(ids).toContain("input-a-for-b-for-c")
    expect(ids).toContain("input-a-for-b-for-c-2")
    expect(new Set(ids).size).toBe(ids.length)
  })

  it("the CSP allows exactly the two inline scripts, by their sha256", () => {
    const found = scripts(render())
    expect(found).toEqual([FORM_SCRIPT, PASSKEY_SCRIPT])
    const hashes = found.map((script) => `'sha256-${createHash("sha256").update(script, "utf8").digest("base64")}'`)
    expect(hashes).toEqual([FORM_SCRIPT_HASH, PASSKEY_SCRIPT_HASH])
    expect(page().csp).toContain(`script-src ${hashes.join(" ")};`)
    expect(page().csp).toContain("connect-src 'self'")
    for (const script of found) {
      expect(script).toMatch(/^[\x20-\x7e\n]*$/) // ASCII: the hash cannot depend on an encoding
      expect(() => new Function(script)).not.toThrow()
    }
  })

  it("without a passkey provider: the form script only, and no connect-src", () => {
    const html = render({ providers: [credentials] })
    expect(scripts(html)).toEqual([FORM_SCRIPT])
    expect(page({ providers: [credentials] }).csp).toContain(`script-src ${FORM_SCRIPT_HASH};`)
    expect(page({ providers: [credentials] }).csp).not.toContain("connect-src")
    expect(signInPageHasScript([credentials], kindOf)).toBe(false)
    expect(signInPageHasScript([credentials, passkey], kindOf)).toBe(true)
  })

  it("GET /signin sends the CSP header that allows both scripts with a passkey provider, and the form script alone without", async () => {
    const withPasskey = makeConfig({
      providers: [Passkey()],
      adapter: MemoryAdapter(),
      experimental: { enableWebAuthn: true },
      logger: { error: () => {}, warn: () => {}, debug: () => {} },
    })
    const res = await Auth(new Request("http://localhost:3000/auth/signin"), withPasskey)
    const html = await res.text()
    expect(res.headers.get("content-security-policy")).toContain(
      `script-src ${FORM_SCRIPT_HASH} ${PASSKEY_SCRIPT_HASH};`,
    )
    expect(html).toContain('id="passkey-signin"')
    const plain = await Auth(new Request("http://localhost:3000/auth/signin"), makeConfig())
    expect(plain.headers.get("content-security-policy")).toContain(`script-src ${FORM_SCRIPT_HASH};`)
  })
})

/**
 * Just enough DOM for the page script: the passkey sign-in form (a button), the registration form (an e-mail input)
 * and, with `autofillInput`, a field elsewhere on the page whose autocomplete has `webauthn`.
 */
function fakePage(
  options: {
    email?: string
    conditional?: boolean
    conditionalAvailable?: boolean
    optionsAction?: "register" | "authenticate"
    returnedUrl?: string
    autofillInput?: boolean
  } = {},
) {
  const bytes = (text: string) => new Uint8Array(Buffer.from(text)).buffer
  const b64 = (text: string) => Buffer.from(text).toString("base64url")
  type Listener = (event: { preventDefault(): void }) => void
  const part = () => {
    const listeners: Listener[] = []
    const button = {
      disabled: false,
      attributes: new Set<string>(),
      setAttribute(name: string) {
        this.attributes.add(name)
      },
      removeAttribute(name: string) {
        this.attributes.delete(name)
      },
    }
    const message = { textContent: "", hidden: true }
    return {
      listeners,
      button,
      message,
      submit: () => {
        for (const l of listeners) l({ preventDefault: () => {} })
      },
    }
  }
  const signIn = part()
  const registration = part()
  const input = { name: "email", value: options.email ?? "" }
  const form = {
    dataset: {
      webauthnProvider: "passkey",
      basePath: "/auth",
      csrfToken: "csrf-1",
      callbackUrl: "http://localhost/dash",
      conditional: String(options.conditional ?? false),
      registerForm: "passkey-register",
      state: "idle",
    } as Record<string, string>,
    querySelector: (selector: string) =>
      selector === "button[type=submit]" ? signIn.button : selector === "[data-passkey-error]" ? signIn.message : null,
    querySelectorAll: () => [],
    addEventListener: (_type: string, listener: Listener) => void signIn.listeners.push(listener),
  }
  const register = {
    querySelector: (selector: string) =>
      selector === "button[type=submit]"
        ? registration.button
        : selector === "[data-passkey-error]"
          ? registration.message
          : null,
    querySelectorAll: () => [input],
    addEventListener: (_type: string, listener: Listener) => void registration.listeners.push(listener),
  }
  const requests: { url: string; init?: RequestInit }[] = []
  const action = options.optionsAction ?? "authenticate"
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    requests.push({ url, init })
    if (url.includes("/webauthn-options/")) {
      const optionsJson =
        action === "register"
          ? {
              challenge: b64("c1"),
              rp: { name: "x" },
              user: { id: b64("u1"), name: "a", displayName: "a" },
              pubKeyCredParams: [],
            }
          : { challenge: b64("c1"), allowCredentials: [{ id: b64("cred"), type: "public-key" }] }
      return new Response(JSON.stringify({ action, options: optionsJson }))
    }
    return new Response(JSON.stringify({ url: options.returnedUrl ?? "http://localhost/dash" }))
  })
  const assertion = {
    id: b64("cred"),
    rawId: bytes("cred"),
    type: "public-key",
    authenticatorAttachment: "platform",
    getClientExtensionResults: () => ({}),
    response: {
      clientDataJSON: bytes("cdj"),
      authenticatorData: bytes("ad"),
      signature: bytes("sig"),
      userHandle: bytes("u1"),
    },
  }
  const attestation = {
    id: b64("new"),
    rawId: bytes("new"),
    type: "public-key",
    authenticatorAttachment: null,
    getClientExtensionResults: () => ({}),
    response: {
      clientDataJSON: bytes("cdj"),
      attestationObject: bytes("ao"),
      getTransports: () => ["internal"],
      getPublicKeyAlgorithm: () => -7,
      getPublicKey: () => bytes("pk"),
      getAuthenticatorData: () => bytes("ad"),
    },
  }
  const credentials = { get: vi.fn(async () => assertion), create: vi.fn(async () => attestation) }
  const PublicKeyCredential = { isConditionalMediationAvailable: async () => options.conditionalAvailable ?? true }
  const window = { PublicKeyCredential, location: { href: "http://localhost/auth/signin" } }
  const document = {
    querySelectorAll: () => [form],
    getElementById: (id: string) => (id === "passkey-register" ? register : null),
    querySelector: (selector: string) => (selector.includes("webauthn") && (options.autofillInput ?? true) ? {} : null),
  }
  new Function("window", "document", "navigator", "fetch", "PublicKeyCredential", PASSKEY_SCRIPT)(
    window,
    document,
    { credentials },
    fetch,
    PublicKeyCredential,
  )
  return {
    form,
    window,
    requests,
    credentials,
    message: signIn.message,
    button: signIn.button,
    registration,
    submit: signIn.submit,
  }
}

describe("the page script (fake DOM)", () => {
  it("the passkey button, even with an e-mail typed in the registration form: options with action=authenticate and no e-mail (a discoverable credential), get(), then the callback and navigation to the returned url", async () => {
    const page = fakePage({ email: "ada@example.com" })
    page.submit()
    expect(page.button.disabled).toBe(true)
    expect(page.button.attributes.has("data-busy")).toBe(true)
    await vi.waitFor(() => expect(page.window.location.href).toBe("http://localhost/dash"))
    expect(page.requests.map((r) => r.url)).toEqual([
      "/auth/webauthn-options/passkey?action=authenticate",
      "/auth/callback/passkey",
    ])
    const post = page.requests[1]?.init as RequestInit
    expect(post.method).toBe("POST")
    expect((post.headers as Record<string, string>)["x-auth-return-redirect"]).toBe("1")
    const body = new URLSearchParams(String(post.body))
    expect(body.get("action")).toBe("authenticate")
    expect(body.has("email")).toBe(false)
    expect((page.credentials.get.mock.calls[0] as unknown as [CredentialRequestOptions])[0].mediation).toBe("optional")
    expect(body.get("csrfToken")).toBe("csrf-1")
    expect(body.get("callbackUrl")).toBe("http://localhost/dash")
    expect(JSON.parse(body.get("data") as string)).toEqual({
      id: "Y3JlZA",
      rawId: "Y3JlZA",
      type: "public-key",
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
      response: { clientDataJSON: "Y2Rq", authenticatorData: "YWQ", signature: "c2ln", userHandle: "dTE" },
    })
    expect(page.form.dataset.state).toBe("done")
  })

  it("the registration form: the typed e-mail goes to the options request (the server picks); on register, create() and the registration JSON with transports", async () => {
    const page = fakePage({ email: "ada@example.com", optionsAction: "register" })
    page.registration.submit()
    expect(page.registration.button.attributes.has("data-busy")).toBe(true)
    await vi.waitFor(() => expect(page.window.location.href).toBe("http://localhost/dash"))
    expect(page.requests[0]?.url).toBe("/auth/webauthn-options/passkey?email=ada%40example.com")
    const body = new URLSearchParams(String(page.requests[1]?.init?.body))
    expect(body.get("action")).toBe("register")
    expect(body.get("email")).toBe("ada@example.com")
    expect(JSON.parse(body.get("data") as string).response).toEqual({
      clientDataJSON: "Y2Rq",
      attestationObject: "YW8",
      transports: ["internal"],
      publicKeyAlgorithm: -7,
      publicKey: "cGs",
      authenticatorData: "YWQ",
    })
    const call = page.credentials.create.mock.calls[0] as unknown as [CredentialCreationOptions]
    expect(Buffer.from(call[0].publicKey?.user.id as ArrayBuffer).toString()).toBe("u1")
  })

  it("the user cancels: the message is shown, the button works again (no spinner), nothing is posted", async () => {
    const page = fakePage()
    page.credentials.get.mockRejectedValueOnce(Object.assign(new Error("cancelled"), { name: "NotAllowedError" }))
    page.submit()
    await vi.waitFor(() => expect(page.form.dataset.state).toBe("error"))
    expect(page.message.hidden).toBe(false)
    expect(page.message.textContent).toContain("cancelled")
    expect(page.button.disabled).toBe(false)
    expect(page.button.attributes.has("data-busy")).toBe(false)
    expect(page.requests).toHaveLength(1)
  })

  it("a failed registration shows its message under the registration form, not under the passkey button", async () => {
    const page = fakePage({ email: "ada@example.com", optionsAction: "register" })
    page.credentials.create.mockRejectedValueOnce(Object.assign(new Error("exists"), { name: "InvalidStateError" }))
    page.registration.submit()
    await vi.waitFor(() => expect(page.form.dataset.state).toBe("error"))
    expect(page.registration.message).toMatchObject({
      hidden: false,
      textContent: expect.stringContaining("already registered"),
    })
    expect(page.message.hidden).toBe(true)
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

  it("conditional UI not available, disabled, or no field on the page has the webauthn token: no request on load", async () => {
    for (const page of [
      fakePage({ conditional: true, conditionalAvailable: false }),
      fakePage({ conditional: false }),
      fakePage({ conditional: true, autofillInput: false }),
    ]) {
      await new Promise((resolve) => setTimeout(resolve, 10))
      expect(page.requests).toEqual([])
      expect(page.form.dataset.state).toBe("idle")
    }
  })
})
