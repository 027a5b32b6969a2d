// Fuzz: callbackUrl and redirect validation. Random and crafted callbackUrls (the RD-01 forms composed
// from their parts, CR/LF, look-alike hosts, 100 KB repeats) sent in the body, the query or the callback-url cookie
// to every entry that takes one; wherever the answer sends the browser it stays on the app origin.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import { makeConfig } from "../support/flow-kit.js"
import { sessionCookiesSet } from "../support/cookies.js"
import {
  CSRF_COOKIE,
  CSRF_TOKEN,
  FUZZ_RUNS,
  PROVIDER_ORIGIN,
  Reached,
  unreachableGitHub,
  callbackUrl,
  csrfCookieName,
  expectNot5xx,
  expectOnlyAuthErrors,
  expectStaysOn,
  fuzz,
  fuzzTimeout,
  recordingLogger,
  watchUnhandled,
} from "./arbitraries.js"

const FILE = "test/fuzz/redirects.test.ts"
const ORIGINS = ["https://app.example", "http://localhost:3000"] as const
/** Longest callbackUrl Gatehouse considers; longer ones fall back to the base URL (DS-05). */
const MAX_URL_LENGTH = 8192

interface Entry {
  name: string
  method: "GET" | "POST"
  path: string
  /** Extra body fields (besides csrfToken and maybe callbackUrl). */
  fields?: Record<string, string>
  /** Whether a successful answer redirects to the callbackUrl (so DS-05's fallback can be checked). */
  landsOnCallback?: boolean
}

const ENTRIES: Entry[] = [
  { name: "sign-in page", method: "GET", path: "/auth/signin" },
  { name: "sign-out page", method: "GET", path: "/auth/signout" },
  { name: "POST /signin", method: "POST", path: "/auth/signin" },
  { name: "POST /signin/credentials", method: "POST", path: "/auth/signin/credentials" },
  { name: "POST /signin/github", method: "POST", path: "/auth/signin/github" },
  {
    name: "credentials callback, right password",
    method: "POST",
    path: "/auth/callback/credentials",
    fields: { username: "alice", password: "password" },
    landsOnCallback: true,
  },
  {
    name: "credentials callback, wrong password",
    method: "POST",
    path: "/auth/callback/credentials",
    fields: { username: "alice", password: "wrong" },
  },
  { name: "POST /signout", method: "POST", path: "/auth/signout", landsOnCallback: true },
  { name: "GitHub callback without checks", method: "GET", path: "/auth/callback/github?code=c&state=s" },
]

function config(logger: NonNullable<AuthConfig["logger"]>): AuthConfig {
  const base = makeConfig({ logger })
  return {
    ...base,
    providers: [...base.providers, unreachableGitHub()],
    // Thousands of credentials attempts from one address: rate limits have their own tests (test/rate-limit/).
    rateLimit: false,
  }
}

interface Case {
  origin: string
  entry: Entry
  url: string
  source: "body" | "query" | "cookie"
  json: boolean
  returnRedirect: boolean
}

const redirectCase: fc.Arbitrary<Case> = fc.constantFrom(...ORIGINS).chain((origin) =>
  fc.record({
    origin: fc.constant(origin),
    entry: fc.constantFrom(...ENTRIES),
    url: callbackUrl(new URL(origin).host),
    source: fc.constantFrom("body", "query", "cookie"),
    json: fc.boolean(),
    returnRedirect: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
  }),
)

function toRequest(c: Case): Request {
  const secure = c.origin.startsWith("https:")
  const { entry } = c
  const cookies = [`${csrfCookieName(secure)}=${encodeURIComponent(CSRF_COOKIE)}`]
  // Percent-encoded as a cookie value; a lone surrogate becomes U+FFFD, as any UTF-8 encoder would send it.
  if (c.source === "cookie")
    cookies.push(`${secure ? "__Secure-" : ""}authjs.callback-url=${encodeURIComponent(Buffer.from(c.url).toString())}`)
  const headers = new Headers({ cookie: cookies.join("; ") })
  if (c.returnRedirect) headers.set("x-auth-return-redirect", "1")
  let target = `${c.origin}${entry.path}`
  // A GET has nowhere but the query or the cookie for it.
  const source = entry.method === "GET" && c.source === "body" ? "query" : c.source
  if (source === "query") target += `${target.includes("?") ? "&" : "?"}${new URLSearchParams({ callbackUrl: c.url })}`
  if (entry.method === "GET") return new Request(target, { headers })
  const fields: Record<string, string> = { csrfToken: CSRF_TOKEN, ...entry.fields }
  if (source === "body") fields.callbackUrl = c.url
  headers.set("content-type", c.json ? "application/json" : "application/x-www-form-urlencoded")
  const body = c.json ? JSON.stringify(fields) : new URLSearchParams(fields).toString()
  return new Request(target, { method: "POST", headers, body })
}

describe("fuzz: callbackUrl and redirect validation", () => {
  it(
    `RD-01 RD-02 RD-03 RD-06 DS-05 ${FUZZ_RUNS} callbackUrls (random, crafted open-redirect forms, CR/LF, look-alike hosts, 100 KB) in the body, query or callback-url cookie of the sign-in page, POST /signin[/<id>], the credentials callback, the sign-out page and POST /signout: every Location, {url}, callback-url cookie and page link stays on the app origin`,
    async () => {
      const { logger, errors } = recordingLogger()
      const cfg = config(logger)
      const unhandled = watchUnhandled()
      const reached = new Reached()
      // The only place a browser may leave the app: the configured authorization endpoint, which must send it back here.
      const toProvider =
        (origin: string) =>
        (url: URL): boolean => {
          if (url.origin !== PROVIDER_ORIGIN || url.pathname !== "/authorize") return false
          expect(new URL(url.searchParams.get("redirect_uri") ?? "").origin).toBe(origin)
          return true
        }
      try {
        await fuzz(
          FILE,
          fc.asyncProperty(redirectCase, async (c) => {
            errors.length = 0
            const res = await Auth(toRequest(c), cfg)
            expectNot5xx(res)
            expectOnlyAuthErrors(errors)
            expect(unhandled.rejections).toEqual([])
            await expectStaysOn(res, new Set([c.origin]), toProvider(c.origin))

            const destination = res.headers.get("location") ?? ""
            if (
              c.entry.landsOnCallback &&
              (res.status === 302 || res.status === 200) &&
              destination.startsWith(c.origin)
            ) {
              if (c.entry.path === "/auth/callback/credentials")
                expect(sessionCookiesSet(res).length, "the right password signs in").toBeGreaterThan(0)
              const landed = new URL(destination)
              // DS-05: an over-long callbackUrl is not considered; the browser lands on the base URL.
              if (c.url.length > MAX_URL_LENGTH) {
                expect(`${landed.pathname}${landed.search}`).toBe("/")
                reached.add("long url fell back")
              } else reached.add(landed.pathname === "/" && landed.search === "" ? "base url" : "kept")
            }
            if (destination.startsWith(`${PROVIDER_ORIGIN}/authorize`)) reached.add("to provider")
          }),
        )
      } finally {
        unhandled.stop()
      }
      reached.expect(["kept", "base url", "long url fell back", "to provider"])
    },
    fuzzTimeout(10),
  )
})
