// gatehouse/webauthn's signIn against the real routes (Auth()) with the software authenticator behind a stubbed
// navigator.credentials: the options it converts and the JSON it posts are what the server verifies (no browser;
// the Chromium tests with a virtual authenticator are in test/e2e).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { configure } from "../../src/client/index.js"
import { Auth, type AuthConfig } from "../../src/index.js"
import { signIn } from "../../src/webauthn/index.js"
import type { SoftAuthenticator } from "../support/soft-authenticator.js"
import { CookieJar, ORIGIN, passkeyConfig, session, softPasskey } from "../support/webauthn-kit.js"

const b64 = (value: BufferSource) =>
  Buffer.from(
    ArrayBuffer.isView(value)
      ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
      : new Uint8Array(value),
  ).toString("base64url")
const bytes = (value: string) => new Uint8Array(Buffer.from(value, "base64url")).buffer
const descriptors = (list?: PublicKeyCredentialDescriptor[]) =>
  list?.map((d) => ({ type: d.type, id: b64(d.id), transports: d.transports }))

/** The browser's side: the ArrayBuffer options back to JSON for the software authenticator, its answer as a PublicKeyCredential. */
function stubBrowser(authenticator: SoftAuthenticator): { calls: CredentialRequestOptions[] } {
  const calls: CredentialRequestOptions[] = []
  const credential = (json: {
    id: string
    rawId: string
    type: string
    authenticatorAttachment: string
    response: Record<string, unknown>
  }) => ({
    id: json.id,
    rawId: bytes(json.rawId),
    type: json.type,
    authenticatorAttachment: json.authenticatorAttachment,
    getClientExtensionResults: () => ({}),
    response: Object.fromEntries(
      Object.entries(json.response).map(([k, v]) => [k, typeof v === "string" ? bytes(v) : v]),
    ),
  })
  const create = async ({ publicKey }: CredentialCreationOptions) => {
    const o = publicKey!
    const json = authenticator.register({
      ...o,
      challenge: b64(o.challenge),
      user: { ...o.user, id: b64(o.user.id) },
      excludeCredentials: descriptors(o.excludeCredentials),
    } as Parameters<SoftAuthenticator["register"]>[0])
    const made = credential(json)
    const { transports, publicKeyAlgorithm } = json.response
    Object.assign(made.response, {
      getTransports: () => transports,
      getPublicKeyAlgorithm: () => publicKeyAlgorithm,
      transports: undefined,
      publicKeyAlgorithm: undefined,
    })
    return made
  }
  const get = async (request: CredentialRequestOptions) => {
    calls.push(request)
    const o = request.publicKey!
    return credential(
      authenticator.authenticate({
        ...o,
        challenge: b64(o.challenge),
        allowCredentials: descriptors(o.allowCredentials),
      } as Parameters<SoftAuthenticator["authenticate"]>[0]),
    )
  }
  vi.stubGlobal(
    "PublicKeyCredential",
    class {
      static isConditionalMediationAvailable = async () => true
    },
  )
  vi.stubGlobal("navigator", { credentials: { create, get } })
  return { calls }
}

/** fetch for the browser helpers: same-origin requests go to Auth() with the jar's cookies. */
function stubFetch(config: AuthConfig, jar: CookieJar): void {
  vi.stubGlobal("fetch", async (input: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    headers.set("cookie", jar.header())
    if (init.method === "POST") headers.set("origin", ORIGIN)
    const res = await Auth(new Request(new URL(input, ORIGIN), { ...init, headers }), config)
    jar.store(res)
    return res
  })
}

describe("gatehouse/webauthn signIn against the server", () => {
  beforeEach(() => {
    vi.stubGlobal("window", { location: { href: `${ORIGIN}/page`, reload: () => undefined } })
    vi.stubGlobal("BroadcastChannel", undefined)
    configure({ basePath: "/auth" })
  })
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it("signs up with a new e-mail (the server picks register), then signs in with the passkey on a fresh jar (authenticate)", async () => {
    const config = passkeyConfig(MemoryAdapter())
    const authenticator = softPasskey()
    stubBrowser(authenticator)
    const jar = new CookieJar()
    stubFetch(config, jar)
    const signUp = await signIn("passkey", {
      email: "ada@example.com",
      redirect: false,
      redirectTo: `${ORIGIN}/account`,
    })
    expect(signUp).toEqual({ error: undefined, code: undefined, status: 200, ok: true, url: `${ORIGIN}/account` })
    expect((await session(config, jar))?.user.email).toBe("ada@example.com")

    const fresh = new CookieJar()
    stubFetch(config, fresh)
    const login = await signIn("passkey", { redirect: false, redirectTo: `${ORIGIN}/account` })
    expect(login.ok).toBe(true)
    expect((await session(config, fresh))?.user.email).toBe("ada@example.com")
  })

  it("conditional (autofill) sign-in, and a second registration for a known e-mail while signed out is refused before any ceremony", async () => {
    const config = passkeyConfig(MemoryAdapter())
    const authenticator = softPasskey()
    const { calls } = stubBrowser(authenticator)
    stubFetch(config, new CookieJar())
    expect((await signIn("passkey", { email: "bo@example.com", redirect: false })).ok).toBe(true)

    const jar = new CookieJar()
    stubFetch(config, jar)
    const autofill = await signIn("passkey", { conditional: true, redirect: false, redirectTo: `${ORIGIN}/account` })
    expect(autofill.ok).toBe(true)
    expect(calls.at(-1)?.mediation).toBe("conditional")
    expect((await session(config, jar))?.user.email).toBe("bo@example.com")

    stubFetch(config, new CookieJar())
    const taken = await signIn("passkey", { action: "register", email: "bo@example.com", redirect: false })
    expect(taken).toEqual({ error: "WebAuthnOptionsError", code: "Invalid request", status: 400, ok: false, url: null })
  })

  it("a response made for another origin is refused by the server: WebAuthnVerificationError from the returned URL, no session", async () => {
    const config = passkeyConfig(MemoryAdapter())
    stubBrowser(softPasskey({ origin: "http://evil.example" }))
    const jar = new CookieJar()
    stubFetch(config, jar)
    const result = await signIn("passkey", { email: "eve@example.com", redirect: false })
    expect(result).toEqual({ error: "WebAuthnVerificationError", code: undefined, status: 200, ok: false, url: null })
    expect(await session(config, jar)).toBeNull()
  })

  it("the sign-in page's own script (run on a minimal DOM built from the served page) signs up and in against the routes", async () => {
    const config = passkeyConfig(MemoryAdapter())
    const authenticator = softPasskey()
    stubBrowser(authenticator)
    const runPage = async (jar: CookieJar, email: string) => {
      stubFetch(config, jar)
      const page = await fetch(`/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/account`)}`)
      const html = await page.text()
      const formTag = /<form id="passkey-form"[^>]*>/.exec(html)?.[0] as string
      const attr = (name: string) => (new RegExp(`${name}="([^"]*)"`).exec(formTag)?.[1] ?? "").replace(/&amp;/g, "&")
      const dataset: Record<string, string> = {
        webauthnProvider: attr("data-webauthn-provider"),
        basePath: attr("data-base-path"),
        csrfToken: attr("data-csrf-token"),
        callbackUrl: attr("data-callback-url"),
        conditional: "false",
        registerForm: attr("data-register-form"),
        state: "idle",
      }
      // The page's passkey script (the other one is the form script): the one that asks for WebAuthn options.
      const script = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)]
        .map((m) => m[1] as string)
        .find((text) => text.includes("webauthn-options/")) as string
      const input = { name: "email", value: email }
      /** A form of the page: the sign-in form (a button only) or the registration form (the e-mail field). */
      const fakeForm = (fields: object[], extra: object = {}) => {
        const listeners: ((e: { preventDefault(): void }) => void)[] = []
        const button = { disabled: false, setAttribute() {}, removeAttribute() {} }
        return {
          ...extra,
          listeners,
          querySelectorAll: () => fields,
          addEventListener: (_: string, fn: (e: { preventDefault(): void }) => void) => void listeners.push(fn),
          querySelector: (selector: string) =>
            selector === "button[type=submit]"
              ? button
              : selector === "[data-passkey-error]"
                ? { hidden: true, textContent: "" }
                : null,
        }
      }
      const form = fakeForm([], { dataset })
      const register = fakeForm([input])
      const location = { href: `${ORIGIN}/auth/signin` }
      new Function("window", "document", "navigator", "fetch", "PublicKeyCredential", script)(
        { PublicKeyCredential: globalThis.PublicKeyCredential, location },
        {
          querySelectorAll: () => [form],
          getElementById: (id: string) => (id === dataset.registerForm ? register : null),
          querySelector: () => null,
        },
        navigator,
        fetch,
        globalThis.PublicKeyCredential,
      )
      // Signing up goes through "Create a passkey" with the e-mail; signing in is the button alone.
      for (const listener of (email ? register : form).listeners) listener({ preventDefault() {} })
      await vi.waitFor(() => expect(dataset.state).toBe("done"))
      return location.href
    }
    const jar = new CookieJar()
    expect(await runPage(jar, "cy@example.com")).toBe(`${ORIGIN}/account`)
    expect((await session(config, jar))?.user.email).toBe("cy@example.com")
    const fresh = new CookieJar()
    expect(await runPage(fresh, "")).toBe(`${ORIGIN}/account`)
    expect((await session(config, fresh))?.user.email).toBe("cy@example.com")
  })
})
