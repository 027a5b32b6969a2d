// RD-04 (docs/security.md): the RD-01 open-redirect set driven through every entry that takes a callbackUrl today.
// The app is https://app.example, run in-process by the test browser (test/support/browser.ts), which
// follows redirects and keeps cookies as a browser does and refuses any URL that is neither the app nor
// 127.0.0.1. Each entry runs a whole navigation: sign-in page → provider → callback → landing page, or the
// sign-out page → confirm → landing page. It must end on the app origin, and where the flow signs in, the
// browser must then hold a session (so the test cannot pass on an error path). Providers: a mock OpenID
// provider (test/support/mock-op.ts, query and form_post response modes) and a local Twitter for OAuth 1.0a
// (test/support/fake-twitter.ts); e-mail links with a recording provider; passkeys with the software authenticator.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Credentials from "../../src/providers/credentials.js"
import Email from "../../src/providers/email.js"
import Passkey from "../../src/providers/passkey.js"
import type { OAuthConfigBase } from "../../src/providers/types.js"
import { SECRET } from "../support/flow-kit.js"
import { Browser, type FollowResult, formatStep, parseForms } from "../support/browser.js"
import { type FakeTwitter, startFakeTwitter, twitterOAuth1 } from "../support/fake-twitter.js"
import { type MockOp, startMockOp } from "../support/mock-op.js"
import { mockOpProvider } from "../support/mock-op-provider.js"
import { createSoftAuthenticator } from "../support/soft-authenticator.js"

const APP = "https://app.example"
const HOST = "app.example"
const CALLBACK_COOKIE = "__Secure-authjs.callback-url"

/** The RD-01 set, verbatim from the case list (the app runs on https, so http:// on its own host is foreign). */
const RD01 = [
  "https://evil.example",
  "//evil.example",
  "/\\evil.example",
  "\\/evil.example",
  "/%2F%2Fevil.example",
  "https:evil.example",
  "/\t/evil.example",
  "https://app.example@evil.example",
  "https://app.example.evil.example",
  "https://evil.example#@app.example",
  "javascript:alert(document.domain)",
  "data:text/html,<script>alert(1)</script>",
  "http://app.example/dashboard",
]

let op: MockOp
let tw: FakeTwitter
const unhandled: unknown[] = []
const onUnhandled = (reason: unknown): void => void unhandled.push(reason)

beforeAll(async () => {
  process.on("unhandledRejection", onUnhandled)
  ;[op, tw] = await Promise.all([startMockOp({ clientId: "rd04-client" }), startFakeTwitter()])
})
afterAll(async () => {
  await Promise.all([op?.stop(), tw?.stop()])
  process.off("unhandledRejection", onUnhandled)
})
beforeEach(() => {
  op.reset()
  tw.reset()
  unhandled.length = 0
})
afterEach(() => {
  expect(unhandled, "no unhandled rejection").toEqual([])
})

function oidc(id: string, formPost = false): OAuthConfigBase {
  return mockOpProvider(op, {
    id,
    name: `Mock ${id}`,
    ...(formPost ? { authorization: { params: { scope: "openid profile email", response_mode: "form_post" } } } : {}),
  })
}

function config(extra: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    trustedOrigins: [APP], // the configured origin mailed links are built from
    basePath: "/auth",
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize: async (c) =>
          c.username === "alice" && c.password === "password"
            ? { id: "user-1", name: "Alice", email: "alice@example.com" }
            : null,
      }),
      oidc("mock") as AuthConfig["providers"][number],
      oidc("mockfp", true) as AuthConfig["providers"][number],
      twitterOAuth1(tw),
    ],
    ...extra,
  }
}

/** A browser whose only in-process site is the app: /auth/* goes to Auth(), every other path is an app page. */
function browser(cfg: AuthConfig): Browser {
  return new Browser({
    apps: {
      [APP]: (req) =>
        new URL(req.url).pathname.startsWith("/auth/")
          ? Auth(req, cfg)
          : new Response("app page", { headers: { "content-type": "text/plain; charset=utf-8" } }),
    },
  })
}

function formPost(
  url: string,
  fields: Record<string, string> | [string, string][],
  headers: Record<string, string> = {},
): Request {
  return new Request(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  })
}

async function csrf(b: Browser): Promise<string> {
  const res = await b.request(`${APP}/auth/csrf`)
  expect(res.status).toBe(200)
  return ((await res.json()) as { csrfToken: string }).csrfToken
}

/** Navigates; an attempt to leave for a foreign site (the browser refuses it) fails with the steps so far. */
async function navigate(b: Browser, input: Request | string, what: string, initiator?: string): Promise<FollowResult> {
  const before = b.history.length
  try {
    return await b.follow(input, initiator ? { initiator } : {})
  } catch (error) {
    const steps = b.history.slice(before).map(formatStep).join("\n")
    throw new Error(`${what}: ${(error as Error).message}\n${steps}`)
  }
}

/** `value` as a browser resolves it against `base`; null when it is not a URL at all. */
function resolve(value: string, base: string): URL | null {
  try {
    return new URL(value, base)
  } catch {
    return null
  }
}

/** A Location (or URL) the app produced is on the app origin, carries no CR/LF, and embeds no foreign callbackUrl. */
function expectOnApp(value: string | null, what: string): URL {
  expect(value, `${what}: a target URL`).not.toBeNull()
  expect(value!, `${what}: no CR/LF`).not.toMatch(/[\r\n]/)
  const url = resolve(value!, APP)
  expect(url?.origin, `${what}: ${JSON.stringify(value)}`).toBe(APP)
  for (const [k, v] of url!.searchParams) {
    if (k.toLowerCase() === "callbackurl")
      expect(resolve(v, APP)?.origin, `${what}: embedded callbackUrl ${JSON.stringify(v)}`).toBe(APP)
  }
  return url!
}

/** Where a navigation ended, and every redirect the app answered on the way: the app, or the configured provider. */
function expectLanded(r: FollowResult, what: string): URL {
  const trace = r.steps.map(formatStep).join("\n")
  const allowed = new Set([APP, op.origin, new URL(tw.url).origin])
  for (const s of r.steps) {
    if (!s.location || new URL(s.url).origin !== APP) continue
    expect(
      allowed.has(resolve(s.location, s.url)?.origin ?? ""),
      `${what}: the app redirected to ${JSON.stringify(s.location)}\n${trace}`,
    ).toBe(true)
  }
  const last = [...r.steps].reverse().find((s) => s.location && new URL(s.url).origin === APP)
  if (last) expectOnApp(last.location!, `${what}: last redirect`)
  expect(new URL(r.url).origin, `${what}: final page\n${trace}`).toBe(APP)
  return new URL(r.url)
}

async function sessionOf(b: Browser): Promise<{ user?: Record<string, unknown> } | null> {
  const res = await b.request(`${APP}/auth/session`)
  expect(res.status).toBe(200)
  return (await res.json()) as { user?: Record<string, unknown> } | null
}

async function expectSignedIn(b: Browser, what: string): Promise<void> {
  expect((await sessionOf(b))?.user, `${what}: signed in`).toBeTruthy()
}

/** POST /signin/<id> without following: the browser holds the check cookies; returns the provider's URL. */
async function startAt(b: Browser, id: string, callbackUrl: string): Promise<URL> {
  const res = await b.request(formPost(`${APP}/auth/signin/${id}`, { csrfToken: await csrf(b), callbackUrl }))
  expect(res.status, `POST /signin/${id}`).toBe(302)
  const to = new URL(res.headers.get("location")!)
  expect([op.origin, new URL(tw.url).origin]).toContain(to.origin)
  return to
}

/** Credentials sign-in for the sign-out entries. */
async function signedInBrowser(cfg: AuthConfig): Promise<Browser> {
  const b = browser(cfg)
  const res = await b.request(
    formPost(`${APP}/auth/callback/credentials`, { csrfToken: await csrf(b), username: "alice", password: "password" }),
  )
  expect(res.status).toBe(302)
  await expectSignedIn(b, "before sign-out")
  return b
}

interface Entry {
  name: string
  run: (attack: string, what: string) => Promise<void>
}

const ENTRIES: Entry[] = [
  // --- sign-in page (GET) and its forms
  {
    name: "GET /signin?callbackUrl= then the OAuth 2 button on that page",
    run: async (attack, what) => {
      const b = browser(config())
      const page = await navigate(b, `${APP}/auth/signin?callbackUrl=${encodeURIComponent(attack)}`, what)
      expect(page.status).toBe(200)
      const form = parseForms(page.html ?? "", page.url).find((f) => f.action === `${APP}/auth/signin/mock`)
      expect(form, `${what}: the page has the provider's form`).toBeDefined()
      const hidden = form!.fields.find(([k]) => k === "callbackUrl")?.[1] ?? ""
      expectOnApp(hidden, `${what}: the page's hidden callbackUrl`)
      const done = await navigate(b, formPost(form!.action, form!.fields), what)
      expectLanded(done, what)
      await expectSignedIn(b, what)
    },
  },
  {
    name: "GET /signin?callbackUrl= with pages.signIn, then the custom page's POST /signin/<oauth2>",
    run: async (attack, what) => {
      const b = browser(config({ pages: { signIn: "/login" } }))
      const res = await b.request(`${APP}/auth/signin?callbackUrl=${encodeURIComponent(attack)}`)
      expect(res.status).toBe(302)
      const login = expectOnApp(res.headers.get("location"), `${what}: redirect to pages.signIn`)
      expect(login.pathname).toBe("/login")
      const passed = login.searchParams.get("callbackUrl") ?? ""
      const done = await navigate(
        b,
        formPost(`${APP}/auth/signin/mock`, { csrfToken: await csrf(b), callbackUrl: passed }),
        what,
      )
      expectLanded(done, what)
      await expectSignedIn(b, what)
    },
  },
  // --- OAuth 2 sign-in and callback
  {
    name: "POST /signin/<oauth2> with callbackUrl in the body, then the callback",
    run: async (attack, what) => {
      const b = browser(config())
      const done = await navigate(
        b,
        formPost(`${APP}/auth/signin/mock`, { csrfToken: await csrf(b), callbackUrl: attack }),
        what,
      )
      expectLanded(done, what)
      await expectSignedIn(b, what)
    },
  },
  {
    name: "POST /signin/<oauth2>?callbackUrl= (query), then the callback",
    run: async (attack, what) => {
      const b = browser(config())
      const done = await navigate(
        b,
        formPost(`${APP}/auth/signin/mock?callbackUrl=${encodeURIComponent(attack)}`, { csrfToken: await csrf(b) }),
        what,
      )
      expectLanded(done, what)
      await expectSignedIn(b, what)
    },
  },
  {
    name: "client signIn() for OAuth 2 (X-Auth-Return-Redirect), then the callback",
    run: async (attack, what) => {
      const b = browser(config())
      const res = await b.request(
        formPost(
          `${APP}/auth/signin/mock`,
          { csrfToken: await csrf(b), callbackUrl: attack },
          { "x-auth-return-redirect": "1" },
        ),
      )
      expect(res.status).toBe(200)
      const { url } = (await res.json()) as { url: string }
      expect(new URL(url).origin, `${what}: the JSON url is the provider's`).toBe(op.origin)
      expectLanded(await navigate(b, url, what, APP), what)
      await expectSignedIn(b, what)
    },
  },
  {
    name: "OAuth 2 callback (GET) with callbackUrl added to its query",
    run: async (attack, what) => {
      const b = browser(config())
      const answer = await op.authorize(await startAt(b, "mock", "/dashboard"))
      answer.url.searchParams.set("callbackUrl", attack)
      expectLanded(await navigate(b, answer.url.href, what, op.origin), what)
      await expectSignedIn(b, what)
    },
  },
  {
    name: "OAuth 2 form_post callback (POST) with callbackUrl added to its body",
    run: async (attack, what) => {
      const b = browser(config())
      const answer = await op.authorize(await startAt(b, "mockfp", "/dashboard"))
      expect(answer.responseMode).toBe("form_post")
      const fields: [string, string][] = [...answer.params, ["callbackUrl", attack]]
      expectLanded(await navigate(b, formPost(answer.redirectUri, fields), what, op.origin), what)
      await expectSignedIn(b, what)
    },
  },
  {
    name: "OAuth 2 callback with the URL planted in the callback-url cookie",
    run: async (attack, what) => {
      const b = browser(config())
      const authorize = await startAt(b, "mock", "/dashboard")
      b.cookies.set(HOST, CALLBACK_COOKIE, encodeURIComponent(attack), { secure: true })
      const answer = await op.authorize(authorize)
      expectLanded(await navigate(b, answer.url.href, what, op.origin), what)
      await expectSignedIn(b, what)
    },
  },
  {
    name: "OAuth 2 callback whose signIn callback returns the URL",
    run: async (attack, what) => {
      const b = browser(config({ callbacks: { signIn: () => attack } }))
      expectLanded(
        await navigate(
          b,
          formPost(`${APP}/auth/signin/mock`, { csrfToken: await csrf(b), callbackUrl: "/dashboard" }),
          what,
        ),
        what,
      )
    },
  },
  {
    name: "OAuth 2 first sign-in with pages.newUser (callbackUrl passed on to the new-user page)",
    run: async (attack, what) => {
      const b = browser(config({ adapter: MemoryAdapter(), pages: { newUser: "/welcome" } }))
      const done = await navigate(
        b,
        formPost(`${APP}/auth/signin/mock`, { csrfToken: await csrf(b), callbackUrl: attack }),
        what,
      )
      expect(expectLanded(done, what).pathname, `${what}: the new-user page`).toBe("/welcome")
      await expectSignedIn(b, what)
    },
  },
  {
    name: "OAuth 2 callback carrying an upstream error (access_denied)",
    run: async (attack, what) => {
      const b = browser(config())
      const answer = await op.authorize(await startAt(b, "mock", attack))
      const denied = new URL(answer.redirectUri)
      denied.search = new URLSearchParams({
        error: "access_denied",
        state: answer.params.get("state") ?? "",
        callbackUrl: attack,
      }).toString()
      const done = await navigate(b, denied.href, what, op.origin)
      expect(expectLanded(done, what).pathname).toBe("/auth/error")
    },
  },
  // --- OAuth 1.0a
  {
    name: "POST /signin/<oauth1> with callbackUrl in the body, then the callback",
    run: async (attack, what) => {
      const b = browser(config())
      const done = await navigate(
        b,
        formPost(`${APP}/auth/signin/twitter`, { csrfToken: await csrf(b), callbackUrl: attack }),
        what,
      )
      expectLanded(done, what)
      await expectSignedIn(b, what)
    },
  },
  {
    name: "OAuth 1 callback (GET) with callbackUrl added to its query",
    run: async (attack, what) => {
      const b = browser(config())
      const authenticate = await startAt(b, "twitter", "/dashboard")
      const consent = await b.request(authenticate.href, { initiator: APP })
      expect(consent.status, `${what}: the provider's authorize page`).toBe(302)
      const back = new URL(consent.headers.get("location")!)
      expect(back.origin).toBe(APP)
      back.searchParams.set("callbackUrl", attack)
      expectLanded(await navigate(b, back.href, what, new URL(tw.url).origin), what)
      await expectSignedIn(b, what)
    },
  },
  // --- credentials
  {
    name: "credentials callback with callbackUrl in the body",
    run: async (attack, what) => {
      const b = browser(config())
      const done = await navigate(
        b,
        formPost(`${APP}/auth/callback/credentials`, {
          csrfToken: await csrf(b),
          username: "alice",
          password: "password",
          callbackUrl: attack,
        }),
        what,
      )
      expectLanded(done, what)
      await expectSignedIn(b, what)
    },
  },
  {
    name: "credentials callback?callbackUrl= (query)",
    run: async (attack, what) => {
      const b = browser(config())
      const url = `${APP}/auth/callback/credentials?callbackUrl=${encodeURIComponent(attack)}`
      expectLanded(
        await navigate(b, formPost(url, { csrfToken: await csrf(b), username: "alice", password: "password" }), what),
        what,
      )
      await expectSignedIn(b, what)
    },
  },
  {
    name: "credentials callback with a wrong password",
    run: async (attack, what) => {
      const b = browser(config())
      const done = await navigate(
        b,
        formPost(`${APP}/auth/callback/credentials`, {
          csrfToken: await csrf(b),
          username: "alice",
          password: "nope",
          callbackUrl: attack,
        }),
        what,
      )
      const landed = expectLanded(done, what)
      expect(landed.pathname).toBe("/auth/signin")
      // The sign-in page gets the callbackUrl back only when it is on the app's origin (the retry goes there).
      const back = landed.searchParams.get("callbackUrl")
      if (back !== null) expectOnApp(back, `${what}: the callbackUrl handed back`)
      expect(await sessionOf(b)).toBeNull()
    },
  },
  {
    name: "client signIn() for credentials (X-Auth-Return-Redirect)",
    run: async (attack, what) => {
      const b = browser(config())
      const res = await b.request(
        formPost(
          `${APP}/auth/callback/credentials`,
          { csrfToken: await csrf(b), username: "alice", password: "password", callbackUrl: attack },
          { "x-auth-return-redirect": "1" },
        ),
      )
      expect(res.status).toBe(200)
      expectOnApp(((await res.json()) as { url: string }).url, `${what}: JSON url`)
      await expectSignedIn(b, what)
    },
  },
  // --- sign-out
  {
    name: "POST /signout with callbackUrl in the body",
    run: async (attack, what) => {
      const b = await signedInBrowser(config())
      expectLanded(
        await navigate(b, formPost(`${APP}/auth/signout`, { csrfToken: await csrf(b), callbackUrl: attack }), what),
        what,
      )
      expect(await sessionOf(b)).toBeNull()
    },
  },
  {
    name: "POST /signout?callbackUrl= (query)",
    run: async (attack, what) => {
      const b = await signedInBrowser(config())
      expectLanded(
        await navigate(
          b,
          formPost(`${APP}/auth/signout?callbackUrl=${encodeURIComponent(attack)}`, { csrfToken: await csrf(b) }),
          what,
        ),
        what,
      )
      expect(await sessionOf(b)).toBeNull()
    },
  },
  {
    name: "GET /signout?callbackUrl= then the confirm button on that page",
    run: async (attack, what) => {
      const b = await signedInBrowser(config())
      const page = await navigate(b, `${APP}/auth/signout?callbackUrl=${encodeURIComponent(attack)}`, what)
      expect(page.status).toBe(200)
      const form = parseForms(page.html ?? "", page.url).find((f) => f.method === "POST")
      expect(form, `${what}: the confirmation form`).toBeDefined()
      expectOnApp(form!.action, `${what}: form action`)
      expectLanded(await navigate(b, formPost(form!.action, form!.fields), what), what)
      expect(await sessionOf(b)).toBeNull()
    },
  },
  {
    name: "client signOut() (X-Auth-Return-Redirect)",
    run: async (attack, what) => {
      const b = await signedInBrowser(config())
      const res = await b.request(
        formPost(
          `${APP}/auth/signout`,
          { csrfToken: await csrf(b), callbackUrl: attack },
          { "x-auth-return-redirect": "1" },
        ),
      )
      expect(res.status).toBe(200)
      expectOnApp(((await res.json()) as { url: string }).url, `${what}: JSON url`)
      expect(await sessionOf(b)).toBeNull()
    },
  },
]

describe("RD-04 the RD-01 set on every entry (https app)", () => {
  for (const entry of ENTRIES) {
    describe(`RD-04 ${entry.name}`, () => {
      for (const attack of RD01) {
        it(`RD-01 RD-04 ${entry.name}: callbackUrl ${JSON.stringify(attack)} ends on the app origin`, () =>
          entry.run(attack, `${entry.name} ${JSON.stringify(attack)}`))
      }
    })
  }

  it("RD-04 control: an on-origin callbackUrl is honoured through OAuth 2, OAuth 1 and credentials", async () => {
    for (const id of ["mock", "twitter"]) {
      const b = browser(config())
      const done = await navigate(
        b,
        formPost(`${APP}/auth/signin/${id}`, { csrfToken: await csrf(b), callbackUrl: "/dashboard?tab=2" }),
        id,
      )
      expect(expectLanded(done, id).href).toBe(`${APP}/dashboard?tab=2`)
    }
    const b = browser(config())
    const done = await navigate(
      b,
      formPost(`${APP}/auth/callback/credentials`, {
        csrfToken: await csrf(b),
        username: "alice",
        password: "password",
        callbackUrl: `${APP}/settings`,
      }),
      "credentials",
    )
    expect(expectLanded(done, "credentials").href).toBe(`${APP}/settings`)
    // A wrong password first: the sign-in page gets the on-origin callbackUrl back.
    const w = browser(config())
    const failed = await navigate(
      w,
      formPost(`${APP}/auth/callback/credentials`, {
        csrfToken: await csrf(w),
        username: "alice",
        password: "nope",
        callbackUrl: `${APP}/settings`,
      }),
      "credentials",
    )
    expect(expectLanded(failed, "credentials").searchParams.get("callbackUrl")).toBe(`${APP}/settings`)
  })

  describe("RD-04 e-mail sign-in (POST /signin/email) and the magic-link callback", () => {
    for (const attack of RD01) {
      it(`RD-01 RD-04 e-mail sign-in: callbackUrl ${JSON.stringify(attack)} in the form, the mailed link and the click end on the app origin`, async () => {
        const what = `e-mail ${JSON.stringify(attack)}`
        const sent: string[] = []
        const cfg = config({
          adapter: MemoryAdapter(),
          rateLimit: false,
          providers: [Email({ sendVerificationRequest: ({ url }) => void sent.push(url) })],
        })
        const b = browser(cfg)
        const requested = await navigate(
          b,
          formPost(`${APP}/auth/signin/email`, {
            csrfToken: await csrf(b),
            email: "alice@example.com",
            callbackUrl: attack,
          }),
          what,
        )
        expect(expectLanded(requested, what).pathname).toBe("/auth/verify-request")
        expect(sent, `${what}: one mail`).toHaveLength(1)
        const link = expectOnApp(sent[0]!, `${what}: the mailed link`)
        expect(link.pathname).toBe("/auth/callback/email")
        expectLanded(await navigate(b, link.href, what), what)
        await expectSignedIn(b, what)
      })
    }
  })
  describe("RD-04 WebAuthn callback (passkey registration and authentication)", () => {
    for (const attack of RD01) {
      it(`RD-01 RD-04 WebAuthn: callbackUrl ${JSON.stringify(attack)} on the registration and the authentication callbacks ends on the app origin`, async () => {
        const cfg = config({ adapter: MemoryAdapter(), experimental: { enableWebAuthn: true }, providers: [Passkey()] })
        const passkey = createSoftAuthenticator({ alg: "ES256", rpId: HOST, origin: APP })
        for (const action of ["register", "authenticate"] as const) {
          const what = `WebAuthn ${action} ${JSON.stringify(attack)}`
          const b = browser(cfg)
          const query = action === "register" ? "action=register&email=alice%40example.com" : "action=authenticate"
          const answer = (await (await b.request(`${APP}/auth/webauthn-options/passkey?${query}`)).json()) as {
            action: string
            options: never
          }
          expect(answer.action, what).toBe(action)
          const data = JSON.stringify(
            action === "register" ? passkey.register(answer.options) : passkey.authenticate(answer.options),
          )
          const done = await navigate(
            b,
            formPost(`${APP}/auth/callback/passkey`, { csrfToken: await csrf(b), action, data, callbackUrl: attack }),
            what,
          )
          expectLanded(done, what)
          await expectSignedIn(b, what)
        }
      })
    }
  })
})
