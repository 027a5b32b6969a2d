// gatehouse/sveltekit/client (and gatehouse/sveltekit/webauthn) on the wire, against a recording fetch: as
// @auth/sveltekit/client 1.11.3, their POSTs carry no CSRF token and `/auth/csrf` (a 404 under SvelteKit, whose own
// origin check guards form POSTs) is never asked; gatehouse/client, on the same shared module, still sends the token.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { assertionCredential, b64 } from "../../test/support/browser-credentials.js"
import { setBase } from "../../test/support/sveltekit/paths.js"
import { signIn as kitWebAuthnSignIn } from "../webauthn/sveltekit.js"
import { configure, signIn as clientSignIn, signOut as clientSignOut } from "./index.js"
import { signIn, signOut } from "./sveltekit.js"

/** A `redirect: false` signIn's answer when the callback signed the user in and sends them to /dashboard. */
const SIGNED_IN_TO_DASHBOARD = {
  error: undefined,
  code: undefined,
  status: 200,
  ok: true,
  url: "http://localhost/dashboard",
}

interface Sent {
  line: string
  body: URLSearchParams
}

describe("gatehouse/sveltekit/client: no CSRF token, as @auth/sveltekit/client", () => {
  let sent: Sent[]

  beforeEach(() => {
    sent = []
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })
    vi.stubGlobal("fetch", async (input: string, init: RequestInit = {}) => {
      const url = String(input)
      sent.push({ line: `${init.method ?? "GET"} ${url}`, body: new URLSearchParams(String(init.body ?? "")) })
      const path = new URL(url, "http://localhost").pathname
      if (path.endsWith("/providers"))
        return json(200, {
          credentials: { id: "credentials", name: "Credentials", type: "credentials", signinUrl: "", callbackUrl: "" },
          passkey: { id: "passkey", name: "Passkey", type: "webauthn", signinUrl: "", callbackUrl: "" },
        })
      // What a Gatehouse server without SvelteKit answers; under SvelteKit this route is a 404.
      if (path.endsWith("/csrf")) return json(200, { csrfToken: "csrf-1" })
      if (path.includes("/webauthn-options/"))
        return json(200, {
          action: "authenticate",
          options: { challenge: b64("login-challenge"), rpId: "localhost", userVerification: "preferred" },
        })
      if (path.endsWith("/callback/credentials") || path.endsWith("/callback/passkey"))
        return json(200, { url: "http://localhost/dashboard" })
      if (path.endsWith("/signout")) return json(200, { url: "http://localhost/" })
      return json(404, {})
    })
    vi.stubGlobal("window", { location: { href: "http://localhost/page", reload: () => undefined } })
    vi.stubGlobal(
      "BroadcastChannel",
      class {
        postMessage() {}
        addEventListener() {}
      },
    )
    vi.stubGlobal("PublicKeyCredential", class {})
    vi.stubGlobal("navigator", {
      credentials: {
        create: async () => {
          throw new Error("this test only authenticates")
        },
        get: async () => assertionCredential(),
      },
    })
  })

  afterEach(() => {
    vi.unstubAllGlobals()
    setBase("")
  })

  it("signIn with credentials posts the fields and callbackUrl to <base>/auth/callback/credentials, nothing to /csrf", async () => {
    setBase("/app")
    const result = await signIn("credentials", {
      username: "demo",
      password: "demo",
      redirect: false,
      redirectTo: "/dashboard",
    })
    expect(result).toEqual(SIGNED_IN_TO_DASHBOARD)
    expect(sent.map((r) => r.line)).toEqual(["GET /app/auth/providers", "POST /app/auth/callback/credentials"])
    expect(Object.fromEntries(sent[1]!.body)).toEqual({ username: "demo", password: "demo", callbackUrl: "/dashboard" })
  })

  it("signOut posts only callbackUrl to <base>/auth/signout", async () => {
    const result = await signOut({ redirect: false, redirectTo: "/" })
    expect(result).toEqual({ url: "http://localhost/" })
    expect(sent.map((r) => r.line)).toEqual(["POST /auth/signout"])
    expect(Object.fromEntries(sent[0]!.body)).toEqual({ callbackUrl: "/" })
  })

  it("gatehouse/sveltekit/webauthn: the passkey callback form has no csrfToken either", async () => {
    const result = await kitWebAuthnSignIn("passkey", { redirect: false, redirectTo: "/dashboard" })
    expect(result).toEqual(SIGNED_IN_TO_DASHBOARD)
    expect(sent.map((r) => r.line)).toEqual([
      "GET /auth/providers",
      "GET /auth/webauthn-options/passkey",
      "POST /auth/callback/passkey",
    ])
    expect([...sent[2]!.body.keys()]).toEqual(["action", "data", "callbackUrl"])
  })

  it("gatehouse/client on the same module still fetches and posts the token (other front doors are unchanged)", async () => {
    await signIn("credentials", { username: "demo", password: "demo", redirect: false })
    configure({ basePath: "/auth" })
    sent = []
    await clientSignIn("credentials", { username: "demo", password: "demo", redirect: false })
    await clientSignOut({ redirect: false })
    expect(sent.map((r) => r.line)).toEqual([
      "GET /auth/providers",
      "GET /auth/csrf",
      "POST /auth/callback/credentials",
      "GET /auth/csrf",
      "POST /auth/signout",
    ])
    expect(sent[2]!.body.get("csrfToken")).toBe("csrf-1")
    expect(sent[4]!.body.get("csrfToken")).toBe("csrf-1")
  })
})
