// Security group D: redirects and callbackUrl (docs/security.md §1.D, RD-01..RD-09).
// The app lives on https://app.example. Every entry that takes a callbackUrl (credentials callback,
// sign-out, sign-in POST, the sign-in/sign-out pages, the callback-url cookie, the signIn callback)
// must never send the browser off the origin (RFC 9700 4.11, ASVS 3.7.2).
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import {
  type CredentialsSetup as Setup,
  CookieJar,
  credentialsSetup as setup,
  fetchCsrf,
  get,
  postForm,
  postJson,
  SECRET,
} from "../support/flow-kit.js"
import { sessionCookiesCleared, sessionCookiesSet, setCookieList } from "../support/cookies.js"
import { htmlAttributeValues, resolvesTo } from "../support/redirect-targets.js"
import { bodyText } from "../support/responses.js"

const APP = "https://app.example"
const SESSION = "__Secure-authjs.session-token"
const CALLBACK_COOKIE = "__Secure-authjs.callback-url"

interface Browser {
  csrfToken: string
  /** Cookie header with the CSRF cookie only. */
  csrf: string
  /** Cookie header with the CSRF cookie and alice's session. */
  session: string
}

async function browser(s: Setup): Promise<Browser> {
  const jar = new CookieJar()
  const csrfToken = await fetchCsrf(s.config, jar, APP)
  // Keep only the CSRF cookie: a callback-url cookie from /csrf would shadow the ones under test.
  for (const name of [...jar.cookies.keys()]) if (!name.endsWith("csrf-token")) jar.cookies.delete(name)
  const csrf = jar.header()
  const res = await Auth(
    postForm(
      "/auth/callback/credentials",
      { csrfToken, username: "alice", password: "password" },
      { cookie: csrf, origin: APP },
    ),
    s.config,
  )
  expect(res.status).toBe(302)
  jar.store(res)
  jar.cookies.delete(CALLBACK_COOKIE)
  expect(jar.cookies.has(SESSION)).toBe(true)
  return { csrfToken, csrf, session: jar.header() }
}

const MARKERS = /evil|javascript:|data:|vbscript:/i

/**
 * The browser is never sent off https://app.example by this response: Location (and a callbackUrl
 * embedded in it), callback-url cookies, and any URL-ish attribute in a rendered page that carries
 * attacker material. Never a 5xx (RD-02/RD-05: no throw).
 */
function expectStaysOnOrigin(res: Response, html = "", what = "") {
  expect(res.status, `status for ${what}`).toBeLessThan(500)
  const loc = res.headers.get("location")
  if (loc !== null) {
    expect(loc, `Location for ${what}`).not.toMatch(/[\r\n]/)
    const u = resolvesTo(loc, APP)
    expect(u?.origin, `Location ${JSON.stringify(loc)} for ${what}`).toBe(APP)
    for (const [k, v] of u!.searchParams) {
      if (k.toLowerCase() === "callbackurl")
        expect(resolvesTo(v, APP)?.origin, `embedded callbackUrl ${JSON.stringify(v)} for ${what}`).toBe(APP)
    }
  }
  for (const c of setCookieList(res)) {
    if (/callback-url$/.test(c.name) && c.value !== "")
      expect(resolvesTo(c.value, APP)?.origin, `callback-url cookie ${JSON.stringify(c.value)} for ${what}`).toBe(APP)
  }
  for (const { name, value } of htmlAttributeValues(html)) {
    // The page shell's empty inline icon (<link rel="icon" href="data:,">, src/pages/html.ts): constant, not attacker material.
    if (name === "href" && value === "data:,") continue
    if (!MARKERS.test(value)) continue
    if (name === "value" && !/^\s*[a-z][a-z0-9+.-]*:|^\s*[/\\]/i.test(value)) continue // plain text, not a URL
    expect(resolvesTo(value, APP)?.origin, `${name}=${JSON.stringify(value)} in page for ${what}`).toBe(APP)
  }
}

/** The Location a browser would follow, resolved against the app. */
function locOf(res: Response): URL {
  const loc = res.headers.get("location")
  expect(loc).not.toBeNull()
  const u = resolvesTo(loc!, APP)
  expect(u, `Location ${JSON.stringify(loc)}`).not.toBeNull()
  return u!
}

async function expectNoSecretLeak(res: Response, s: Setup) {
  const body = await bodyText(res)
  expect(body).not.toContain(SECRET)
  expect(s.log.text()).not.toContain(SECRET)
}

// RD-01 attack set (docs/security.md), plus close relatives.
const ATTACKS = [
  "https://evil.example",
  "https://evil.example/dashboard?x=1",
  "//evil.example",
  "///evil.example",
  "/\\evil.example",
  "\\/evil.example",
  "\\\\evil.example",
  "/%2F%2Fevil.example",
  "/%5Cevil.example",
  "https:evil.example",
  "https:/evil.example",
  "https:\\\\evil.example",
  "/\t/evil.example",
  "/\\t/evil.example",
  "\t//evil.example",
  " //evil.example",
  "https://app.example@evil.example",
  "https://app.example:@evil.example",
  "https://app.example.evil.example",
  "https://evil.example#@app.example",
  "https://evil.example?@app.example",
  "https://evil.example\\@app.example",
  "https://evil。example",
  "javascript:alert(document.domain)",
  "JaVaScRiPt:alert(1)",
  "javascript://app.example/%0aalert(1)",
  "data:text/html,<script>alert(1)</script>",
  "http://app.example/dashboard",
  "http://evil.example",
  "ftp://app.example/x",
]

describe("group D: redirects and callbackUrl", () => {
  describe("RD-01 / RD-04 the attack set on every entry", () => {
    it("RD-01 RD-04 credentials callback: body callbackUrl never leaves the origin and sign-in still succeeds", async () => {
      const s = setup()
      const b = await browser(s)
      for (const cb of ATTACKS) {
        const res = await Auth(
          postForm(
            "/auth/callback/credentials",
            { csrfToken: b.csrfToken, username: "alice", password: "password", callbackUrl: cb },
            { cookie: b.csrf, origin: APP },
          ),
          s.config,
        )
        expect(res.status, cb).toBe(302)
        expectStaysOnOrigin(res, "", `credentials body ${JSON.stringify(cb)}`)
        expect(locOf(res).pathname, cb).not.toMatch(/^\/auth\/(error|signin)/)
        expect(sessionCookiesSet(res).length, cb).toBeGreaterThan(0)
        await expectNoSecretLeak(res, s)
      }
    })

    it("RD-01 RD-04 credentials callback: query callbackUrl never leaves the origin", async () => {
      const s = setup()
      const b = await browser(s)
      for (const cb of ATTACKS) {
        const res = await Auth(
          postForm(
            `/auth/callback/credentials?callbackUrl=${encodeURIComponent(cb)}`,
            { csrfToken: b.csrfToken, username: "alice", password: "password" },
            { cookie: b.csrf, origin: APP },
          ),
          s.config,
        )
        expect(res.status, cb).toBe(302)
        expectStaysOnOrigin(res, "", `credentials query ${JSON.stringify(cb)}`)
        expect(sessionCookiesSet(res).length, cb).toBeGreaterThan(0)
      }
    })

    it("RD-01 RD-04 sign-out: body callbackUrl never leaves the origin and the session is cleared", async () => {
      const s = setup()
      const b = await browser(s)
      for (const cb of ATTACKS) {
        const res = await Auth(
          postForm("/auth/signout", { csrfToken: b.csrfToken, callbackUrl: cb }, { cookie: b.session, origin: APP }),
          s.config,
        )
        expect(res.status, cb).toBe(302)
        expectStaysOnOrigin(res, "", `sign-out body ${JSON.stringify(cb)}`)
        expect(
          sessionCookiesCleared(res).map((c) => c.name),
          cb,
        ).toContain(SESSION)
        await expectNoSecretLeak(res, s)
      }
    })

    it("RD-01 RD-04 sign-out: query callbackUrl never leaves the origin", async () => {
      const s = setup()
      const b = await browser(s)
      for (const cb of ATTACKS) {
        const res = await Auth(
          postForm(
            `/auth/signout?callbackUrl=${encodeURIComponent(cb)}`,
            { csrfToken: b.csrfToken },
            { cookie: b.session, origin: APP },
          ),
          s.config,
        )
        expect(res.status, cb).toBe(302)
        expectStaysOnOrigin(res, "", `sign-out query ${JSON.stringify(cb)}`)
      }
    })

    it("RD-01 RD-04 POST /signin with a callbackUrl redirects on the origin", async () => {
      const s = setup()
      const b = await browser(s)
      for (const cb of ATTACKS) {
        const res = await Auth(
          postForm("/auth/signin", { csrfToken: b.csrfToken, callbackUrl: cb }, { cookie: b.csrf, origin: APP }),
          s.config,
        )
        expect(res.status, cb).toBe(302)
        expectStaysOnOrigin(res, "", `POST /signin ${JSON.stringify(cb)}`)
      }
    })

    it("RD-01 RD-04 GET /signin?callbackUrl= renders a page whose URLs stay on the origin", async () => {
      const s = setup()
      for (const cb of ATTACKS) {
        const res = await Auth(get(`/auth/signin?callbackUrl=${encodeURIComponent(cb)}`, { origin: APP }), s.config)
        expect(res.status, cb).toBe(200)
        expect(res.headers.get("content-type") ?? "").toMatch(/^text\/html/)
        const html = await bodyText(res)
        expectStaysOnOrigin(res, html, `GET /signin ${JSON.stringify(cb)}`)
        expect(html).not.toContain("<script>alert(1)</script>")
      }
    })

    it("RD-01 RD-04 GET /signin?callbackUrl= with pages.signIn passes only an on-origin callbackUrl", async () => {
      const s = setup({ pages: { signIn: "/login" } })
      for (const cb of ATTACKS) {
        const res = await Auth(get(`/auth/signin?callbackUrl=${encodeURIComponent(cb)}`, { origin: APP }), s.config)
        expect(res.status, cb).toBe(302)
        const u = resolvesTo(res.headers.get("location")!, APP)!
        expect(u.pathname).toBe("/login")
        expectStaysOnOrigin(res, "", `pages.signIn ${JSON.stringify(cb)}`)
      }
    })

    it("RD-01 RD-04 GET /signout?callbackUrl= renders a page whose URLs stay on the origin", async () => {
      const s = setup()
      const b = await browser(s)
      for (const cb of ATTACKS) {
        const res = await Auth(
          get(`/auth/signout?callbackUrl=${encodeURIComponent(cb)}`, { cookie: b.session, origin: APP }),
          s.config,
        )
        expect(res.status, cb).toBe(200)
        expectStaysOnOrigin(res, await bodyText(res), `GET /signout ${JSON.stringify(cb)}`)
        expect(sessionCookiesCleared(res)).toEqual([])
      }
    })

    it("RD-01 RD-04 a signIn callback returning a foreign URL is still passed through redirect validation", async () => {
      for (const cb of ATTACKS) {
        const s = setup({ callbacks: { signIn: () => cb } })
        const b = await browser(setup())
        const res = await Auth(
          postForm(
            "/auth/callback/credentials",
            { csrfToken: b.csrfToken, username: "alice", password: "password" },
            { cookie: b.csrf, origin: APP },
          ),
          s.config,
        )
        expect(res.status, cb).toBe(302)
        expectStaysOnOrigin(res, "", `signIn callback ${JSON.stringify(cb)}`)
      }
    })

    it("RD-01 control: on-origin targets are honoured", async () => {
      const s = setup()
      const b = await browser(s)
      for (const [cb, expected] of [
        ["/dashboard?tab=1#top", `${APP}/dashboard?tab=1#top`],
        [`${APP}/settings`, `${APP}/settings`],
      ] as const) {
        const res = await Auth(
          postForm(
            "/auth/callback/credentials",
            { csrfToken: b.csrfToken, username: "alice", password: "password", callbackUrl: cb },
            { cookie: b.csrf, origin: APP },
          ),
          s.config,
        )
        expect(res.status).toBe(302)
        expect(locOf(res).href).toBe(expected)
        const out = await Auth(
          postForm("/auth/signout", { csrfToken: b.csrfToken, callbackUrl: cb }, { cookie: b.session, origin: APP }),
          s.config,
        )
        expect(locOf(out).href).toBe(expected)
      }
    })

    it("RD-01 property: random callbackUrl strings never leave the origin (sign-out, 2000 runs)", async () => {
      const s = setup()
      const b = await browser(s)
      await fc.assert(
        fc.asyncProperty(callbackUrlArb(), async (cb) => {
          const res = await Auth(
            postForm("/auth/signout", { csrfToken: b.csrfToken, callbackUrl: cb }, { cookie: b.csrf, origin: APP }),
            s.config,
          )
          // RQ-05 allows a 400 for undecodable input; anything else must be the sign-out redirect.
          expect([302, 400]).toContain(res.status)
          expectStaysOnOrigin(res, "", JSON.stringify(cb))
        }),
        { numRuns: 2000 },
      )
    })

    it("RD-01 property: random callbackUrl strings never leave the origin (credentials, 800 runs)", async () => {
      const s = setup()
      const b = await browser(s)
      await fc.assert(
        fc.asyncProperty(callbackUrlArb(), async (cb) => {
          const res = await Auth(
            postForm(
              "/auth/callback/credentials",
              { csrfToken: b.csrfToken, username: "alice", password: "password", callbackUrl: cb },
              { cookie: b.csrf, origin: APP },
            ),
            s.config,
          )
          expect([302, 400]).toContain(res.status)
          expectStaysOnOrigin(res, "", JSON.stringify(cb))
        }),
        { numRuns: 800 },
      )
    })
  })

  describe("RD-02 malformed callbackUrl", () => {
    const MALFORMED = [
      "http://[",
      "%",
      "%E0%A4%A",
      "http://",
      "https://",
      "http://app.example:99999/",
      "http://[::1",
      "https://app.example%",
      "::::",
      "\u0000",
      "\uD800",
    ]
    const BIG = [
      "https://evil.example/" + "a".repeat(100_000),
      "a".repeat(100 * 1024),
      "/" + "\\".repeat(100 * 1024),
      "http://" + "[".repeat(100 * 1024),
    ]

    it("RD-02 malformed callbackUrl in the credentials body: no throw, falls back to the base URL", async () => {
      const s = setup()
      const b = await browser(s)
      for (const cb of MALFORMED) {
        const res = await Auth(
          postForm(
            "/auth/callback/credentials",
            { csrfToken: b.csrfToken, username: "alice", password: "password", callbackUrl: cb },
            { cookie: b.csrf, origin: APP },
          ),
          s.config,
        )
        expect(res.status, JSON.stringify(cb)).toBe(302)
        const u = locOf(res)
        expect(u.origin, JSON.stringify(cb)).toBe(APP)
        expect(u.pathname, JSON.stringify(cb)).toBe("/")
        expect(sessionCookiesSet(res).length).toBeGreaterThan(0)
      }
      for (const t of s.log.types()) expect(t).not.toMatch(/CallbackRouteError|Configuration/)
    })

    it("RD-02 malformed callbackUrl on sign-out and in the query of GET /signin: no throw, base URL", async () => {
      const s = setup()
      const b = await browser(s)
      for (const cb of MALFORMED) {
        const out = await Auth(
          postForm("/auth/signout", { csrfToken: b.csrfToken, callbackUrl: cb }, { cookie: b.session, origin: APP }),
          s.config,
        )
        expect(out.status, JSON.stringify(cb)).toBe(302)
        expect(locOf(out).origin).toBe(APP)
        expect(sessionCookiesCleared(out).map((c) => c.name)).toContain(SESSION)
        const page = await Auth(
          get(`/auth/signin?${new URLSearchParams({ callbackUrl: cb })}`, { origin: APP }),
          s.config,
        )
        expect(page.status, `GET /signin ${JSON.stringify(cb)}`).toBe(200)
        expectStaysOnOrigin(page, await bodyText(page), JSON.stringify(cb))
      }
    })

    it("RD-02 100 KB callbackUrl (JSON body and query): no throw, stays on the origin", async () => {
      const s = setup()
      const b = await browser(s)
      for (const cb of BIG) {
        const res = await Auth(
          postJson("/auth/signout", { csrfToken: b.csrfToken, callbackUrl: cb }, { cookie: b.session, origin: APP }),
          s.config,
        )
        expect(res.status).toBe(302)
        expectStaysOnOrigin(res, "", `100KB ${cb.slice(0, 30)}`)
        const page = await Auth(get(`/auth/signin?callbackUrl=${encodeURIComponent(cb)}`, { origin: APP }), s.config)
        expect(page.status).toBeLessThan(500)
        expectStaysOnOrigin(page, await bodyText(page), `100KB page ${cb.slice(0, 30)}`)
      }
    })
  })

  describe("RD-03 callback-url cookie", () => {
    const PLANTED = [
      "https://evil.example",
      "//evil.example",
      "https://app.example.evil.example",
      "javascript:alert(1)",
      "http://[",
      "/\\evil.example",
    ]

    for (const name of [CALLBACK_COOKIE, "authjs.callback-url"]) {
      it(`RD-03 a foreign URL planted in ${name} is re-validated and ignored (credentials, sign-out, pages)`, async () => {
        const s = setup()
        const b = await browser(s)
        for (const planted of PLANTED) {
          const tossed = `${name}=${encodeURIComponent(planted)}`
          const signin = await Auth(
            postForm(
              "/auth/callback/credentials",
              { csrfToken: b.csrfToken, username: "alice", password: "password" },
              { cookie: `${b.csrf}; ${tossed}`, origin: APP },
            ),
            s.config,
          )
          expect(signin.status, planted).toBe(302)
          expectStaysOnOrigin(signin, "", `cookie ${planted} on credentials`)
          expect(sessionCookiesSet(signin).length, planted).toBeGreaterThan(0)

          const out = await Auth(
            postForm("/auth/signout", { csrfToken: b.csrfToken }, { cookie: `${b.session}; ${tossed}`, origin: APP }),
            s.config,
          )
          expect(out.status, planted).toBe(302)
          expectStaysOnOrigin(out, "", `cookie ${planted} on sign-out`)

          const page = await Auth(get("/auth/signin", { cookie: tossed, origin: APP }), s.config)
          expect(page.status, planted).toBe(200)
          expectStaysOnOrigin(page, await bodyText(page), `cookie ${planted} on GET /signin`)

          const custom = setup({ pages: { signIn: "/login" } })
          const redirected = await Auth(get("/auth/signin", { cookie: tossed, origin: APP }), custom.config)
          expect(redirected.status, planted).toBe(302)
          expectStaysOnOrigin(redirected, "", `cookie ${planted} with pages.signIn`)
        }
      })
    }

    it("RD-03 control: an on-origin callback-url cookie is honoured", async () => {
      const s = setup()
      const b = await browser(s)
      const res = await Auth(
        postForm(
          "/auth/callback/credentials",
          { csrfToken: b.csrfToken, username: "alice", password: "password" },
          { cookie: `${b.csrf}; ${CALLBACK_COOKIE}=${encodeURIComponent(`${APP}/dashboard`)}`, origin: APP },
        ),
        s.config,
      )
      expect(res.status).toBe(302)
      expect(res.headers.get("location")).toBe(`${APP}/dashboard`)
    })
  })

  describe("RD-05 user redirect callback misbehaves", () => {
    const BAD: [string, AuthConfig["callbacks"]][] = [
      [
        "throws",
        {
          redirect: () => {
            throw new Error("db down at postgres://app:hunter2@db.internal")
          },
        },
      ],
      [
        "rejects",
        {
          redirect: async () => {
            throw new Error("boom")
          },
        },
      ],
      ["returns empty string", { redirect: () => "" }],
      ["returns not a URL", { redirect: () => "not a url at all" }],
      ["returns a number", { redirect: (() => 42) as never }],
      ["returns undefined", { redirect: (() => undefined) as never }],
      ["returns null", { redirect: (() => null) as never }],
      ["returns an object", { redirect: (() => ({ url: "/x" })) as never }],
      ["returns javascript:", { redirect: () => "javascript:alert(1)" }],
      ["returns a CRLF string", { redirect: () => "/\r\nSet-Cookie: x=y" }],
    ]
    for (const [label, callbacks] of BAD) {
      it(`RD-05 redirect callback that ${label}: falls back to the base URL, no 500`, async () => {
        const s = setup({ callbacks })
        const b = await browser(setup())
        const res = await Auth(
          postForm(
            "/auth/callback/credentials",
            { csrfToken: b.csrfToken, username: "alice", password: "password", callbackUrl: "/dashboard" },
            { cookie: b.csrf, origin: APP },
          ),
          s.config,
        )
        expect(res.status).toBe(302)
        expectStaysOnOrigin(res, "", label)
        expect(locOf(res).pathname).not.toMatch(/^\/auth\/(error|signin)/)
        expect(sessionCookiesSet(res).length).toBeGreaterThan(0)
        expect(res.headers.getSetCookie().some((c) => c.startsWith("x="))).toBe(false)

        const out = await Auth(
          postForm(
            "/auth/signout",
            { csrfToken: b.csrfToken, callbackUrl: "/bye" },
            { cookie: b.session, origin: APP },
          ),
          s.config,
        )
        expect(out.status).toBe(302)
        expectStaysOnOrigin(out, "", `${label} sign-out`)
        expect(sessionCookiesCleared(out).map((c) => c.name)).toContain(SESSION)

        const page = await Auth(get("/auth/signin?callbackUrl=%2Fdashboard", { origin: APP }), s.config)
        expect(page.status).toBe(200)
        expectStaysOnOrigin(page, await bodyText(page), `${label} GET /signin`)
        await expectNoSecretLeak(res, s)
        await expectNoSecretLeak(out, s)
        for (const r of [res, out, page]) expect(await bodyText(r)).not.toContain("hunter2")
      })
    }
  })

  describe("RD-06 header injection", () => {
    const INJECT = [
      "/%0d%0aSet-Cookie:x=y",
      "/\r\nSet-Cookie:x=y",
      "/%0aSet-Cookie:%20x=y",
      "/\nLocation: https://evil.example",
      `${APP}/\r\nSet-Cookie:x=y`,
      "/\u2028Set-Cookie:x=y",
      "/\u0000x",
    ]

    function expectNoInjection(res: Response, what: string) {
      expect(res.status, what).toBeLessThan(500)
      for (const c of setCookieList(res)) expect(c.name, what).not.toBe("x")
      const loc = res.headers.get("location")
      if (loc !== null) {
        expect(loc, what).not.toMatch(/[\r\n\u0000]/)
        expect(loc, what).not.toMatch(/^[^?#]*\s/) // no raw whitespace in the path part
      }
      expectStaysOnOrigin(res, "", what)
    }

    it("RD-06 CRLF in callbackUrl never injects a header (credentials, sign-out, pages.signIn)", async () => {
      const s = setup()
      const custom = setup({ pages: { signIn: "/login" } })
      const b = await browser(s)
      for (const cb of INJECT) {
        const what = JSON.stringify(cb)
        const r1 = await Auth(
          postForm(
            "/auth/callback/credentials",
            { csrfToken: b.csrfToken, username: "alice", password: "password", callbackUrl: cb },
            { cookie: b.csrf, origin: APP },
          ),
          s.config,
        )
        expect(r1.status, what).toBe(302)
        expectNoInjection(r1, `credentials ${what}`)
        const r2 = await Auth(
          postForm("/auth/signout", { csrfToken: b.csrfToken, callbackUrl: cb }, { cookie: b.session, origin: APP }),
          s.config,
        )
        expect(r2.status, what).toBe(302)
        expectNoInjection(r2, `sign-out ${what}`)
        const r3 = await Auth(get(`/auth/signin?callbackUrl=${encodeURIComponent(cb)}`, { origin: APP }), custom.config)
        expect(r3.status, what).toBe(302)
        expectNoInjection(r3, `pages.signIn ${what}`)
        const r4 = await Auth(get(`/auth/signin?callbackUrl=${encodeURIComponent(cb)}`, { origin: APP }), s.config)
        expectNoInjection(r4, `GET /signin ${what}`)
      }
    })
  })

  describe("RD-07 look-alike hosts", () => {
    it("RD-07 evil-app.example, app.example.evil.example, xapp.example, sub-domains and other ports are rejected by the default redirect", async () => {
      const s = setup()
      const b = await browser(s)
      for (const cb of [
        "https://evil-app.example/x",
        "https://app.example.evil.example/x",
        "https://xapp.example/x",
        "https://sub.app.example/x",
        "https://app.example:8443/x",
        "https://app.exampl/x",
        "https://app.example.com/x",
      ]) {
        for (const path of ["/auth/callback/credentials", "/auth/signout"]) {
          const res = await Auth(
            postForm(
              path,
              { csrfToken: b.csrfToken, username: "alice", password: "password", callbackUrl: cb },
              { cookie: b.session, origin: APP },
            ),
            s.config,
          )
          expect(res.status).toBe(302)
          expect(locOf(res).origin, `${path} ${cb}`).toBe(APP)
          expect(locOf(res).pathname, `${path} ${cb}`).toBe("/")
        }
      }
    })
  })

  describe("RD-08 IDN, case and trailing dot", () => {
    it("RD-08 Cyrillic look-alike, punycode and trailing-dot hosts are rejected; equal hosts after WHATWG parsing stay on the origin", async () => {
      const s = setup()
      const b = await browser(s)
      const cyrillic = "https://\u0430pp.example/x" // а = U+0430
      const puny = `https://${new URL(cyrillic).host}/x`
      expect(puny).toMatch(/xn--/)
      for (const cb of [
        cyrillic,
        puny,
        "https://app.example./x",
        "https://APP.EXAMPLE./x",
        "https://app.example%2e/x",
        "https://app\u3002example\u3002/x",
      ]) {
        for (const path of ["/auth/callback/credentials", "/auth/signout"]) {
          const res = await Auth(
            postForm(
              path,
              { csrfToken: b.csrfToken, username: "alice", password: "password", callbackUrl: cb },
              { cookie: b.session, origin: APP },
            ),
            s.config,
          )
          expect(res.status, cb).toBe(302)
          const u = resolvesTo(res.headers.get("location")!, APP)!
          expect(u.origin, `${path} ${cb}`).toBe(APP)
        }
      }
      // Same host once parsed: allowed, and in any case the browser lands on the origin.
      for (const cb of ["https://APP.EXAMPLE/x", "https://app.example:443/x", "https://\uFF41\uFF50\uFF50.example/x"]) {
        const res = await Auth(
          postForm("/auth/signout", { csrfToken: b.csrfToken, callbackUrl: cb }, { cookie: b.session, origin: APP }),
          s.config,
        )
        expect(res.status, cb).toBe(302)
        expect(resolvesTo(res.headers.get("location")!, APP)!.origin, cb).toBe(APP)
      }
    })
  })

  describe("RD-09 error page", () => {
    const XSS = '<script>alert("xss-7731")</script>'

    async function page(s: Setup, error: string) {
      const res = await Auth(get(`/auth/error?error=${encodeURIComponent(error)}`, { origin: APP }), s.config)
      return { res, html: await bodyText(res) }
    }

    it("RD-09 error page with ?error=<script> or an unknown code shows the generic Default text, nothing reflected", async () => {
      const s = setup()
      const generic = await page(s, "Default")
      expect(generic.res.status).toBe(200)
      for (const code of [
        XSS,
        "xss-7731-UnknownCode",
        `Configuration${XSS}`,
        "__proto__",
        "constructor",
        "toString",
        "hasOwnProperty",
      ]) {
        const { res, html } = await page(s, code)
        expect(res.status, code).toBe(200)
        expect(res.headers.get("content-type") ?? "").toMatch(/^text\/html/)
        expect(html, code).not.toContain("xss-7731")
        expect(html, code).not.toContain("<script>alert")
        expect(html, code).not.toContain("__proto__")
        expect(html, code).toBe(generic.html)
      }
    })

    it("RD-09 known codes keep their status (Configuration 500, AccessDenied 403, Verification 403)", async () => {
      const s = setup()
      expect((await page(s, "Configuration")).res.status).toBe(500)
      expect((await page(s, "AccessDenied")).res.status).toBe(403)
      expect((await page(s, "Verification")).res.status).toBe(403)
    })

    it("RD-09 sign-in page with ?error=<script> or an unknown code shows generic text, nothing reflected", async () => {
      const s = setup()
      for (const code of [XSS, "xss-7731-UnknownCode"]) {
        const res = await Auth(get(`/auth/signin?error=${encodeURIComponent(code)}`, { origin: APP }), s.config)
        expect(res.status).toBe(200)
        const html = await bodyText(res)
        expect(html).not.toContain("xss-7731")
        expect(html).not.toContain("<script>alert")
      }
    })

    it("RD-09 with pages.error the redirect carries no injected header and stays on the origin", async () => {
      const s = setup({ pages: { error: "/oops" } })
      for (const code of [XSS, "x\r\nSet-Cookie: x=y", "%0d%0aSet-Cookie:x=y", "Default"]) {
        const res = await Auth(get(`/auth/error?error=${encodeURIComponent(code)}`, { origin: APP }), s.config)
        expect(res.status, code).toBe(302)
        const loc = res.headers.get("location")!
        expect(loc).not.toMatch(/[\r\n<>"]/)
        const u = resolvesTo(loc, APP)!
        expect(u.origin).toBe(APP)
        expect(u.pathname).toBe("/oops")
        for (const c of setCookieList(res)) expect(c.name).not.toBe("x")
      }
    })
  })
})

/** Strings shaped like open-redirect payloads plus plain random strings. */
function callbackUrlArb(): fc.Arbitrary<string> {
  const pieces = [
    "/",
    "//",
    "\\",
    "\\\\",
    ":",
    "@",
    "#",
    "?",
    ".",
    "..",
    "%2F",
    "%2f",
    "%5C",
    "%09",
    "%0d%0a",
    "%40",
    "%2e",
    "\t",
    "\n",
    "\r",
    " ",
    "\u0000",
    "\u3002",
    "\uFF0F",
    "\uFF3C",
    "\u2215",
    "https:",
    "http:",
    "HTTPS:",
    "javascript:",
    "data:",
    "file:",
    "evil.example",
    "app.example",
    "APP.EXAMPLE",
    "\u0430pp.example",
    "xn--pp-8kc.example",
    "127.0.0.1",
    "[::1]",
    ":443",
    ":80",
    "localhost",
  ]
  const prefixes = [
    "",
    "/",
    "//",
    "///",
    "/\\",
    "\\/",
    "https:",
    "https:/",
    "https://",
    "http://",
    "HTTPS://",
    "/%2F",
    " ",
    "\t",
    "javascript:",
    "https://app.example@",
    "https://app.example.",
  ]
  const hosts = [
    "evil.example",
    "app.example",
    "app.example.evil.example",
    "evil.example#@app.example",
    "evil.example?@app.example",
    "\u0430pp.example",
    "evil\u3002example",
    "app.example:443",
    "APP.EXAMPLE.",
  ]
  return fc.oneof(
    fc.string({ unit: "binary", maxLength: 40 }),
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    fc
      .tuple(fc.constantFrom(...prefixes), fc.constantFrom(...hosts), fc.string({ maxLength: 8 }))
      .map(([a, b, c]) => a + b + c),
    fc.array(fc.constantFrom(...pieces), { maxLength: 10 }).map((a) => a.join("")),
  )
}
