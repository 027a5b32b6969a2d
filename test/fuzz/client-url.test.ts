// Fuzz (CL-01, CL-02): the browser client's URL choice and basePath rule. For any server answer and redirectTo, the
// page goes nowhere, to the server's http(s) URL, or to an http(s) URL on its own origin; an accepted basePath puts
// every auth route on the page's origin. Node's URL is the WHATWG parser browsers use, so these hold in the page.
import fc from "fast-check"
import { afterEach, describe, expect, it } from "vitest"
import { authUrl, clientConfig, configure } from "../../src/client/config.js"
import { chooseDestination } from "../../src/client/url-rules.js"
import { APP_ORIGINS, FUZZ_RUNS, callbackUrl, fuzz, fuzzTimeout, nastyPiece, wildString } from "./arbitraries.js"

const FILE = "test/fuzz/client-url.test.ts"
const ROUTES = [
  "session",
  "csrf",
  "providers",
  "signin",
  "signout",
  "error",
  "callback/credentials",
  "signin/github",
  "webauthn-options/passkey",
]

/** The page the client runs on: one of the app origins with a path, query and fragment of any shape. */
const page = fc
  .tuple(
    fc.constantFrom(...APP_ORIGINS),
    fc.constantFrom("/", "/account", "/a/b/c?x=1", "/deep/path/#frag", "/%2F%2Fevil.example/", "/@evil.example"),
  )
  .map(([origin, path]) => `${origin}${path}`)

/** What a server answer's `url` may be: absent, a real answer, or anything an attacker or a broken server gives. */
function returnedUrl(appHost: string): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 3 },
    {
      arbitrary: fc.constantFrom(
        `https://${appHost}/dashboard`,
        "/auth/signin?error=CredentialsSignin",
        "https://idp.example/authorize?client_id=x",
      ),
      weight: 1,
    },
    { arbitrary: callbackUrl(appHost).filter((v) => v.length < 20_000), weight: 3 },
  )
}

/** A basePath as a developer or an attacker-controlled setting might give it: crafted prefixes, hosts and junk. */
function basePath(appHost: string): fc.Arbitrary<string> {
  const prefix = fc.constantFrom(
    "/",
    "/",
    "//",
    "///",
    "/\\",
    "\\/",
    "\\\\",
    " /",
    "\t/",
    "/\t/",
    "/\n/",
    "/\r/",
    "\u0000/",
    "/%2F",
    "https://",
    "HTTP://",
    "javascript:",
    "data:",
    "",
    "./",
    "../",
    "?",
    "#",
  )
  const host = fc.constantFrom(
    "",
    "",
    "api/auth",
    "auth",
    appHost,
    "evil.example",
    `${appHost}@evil.example`,
    "127.0.0.1:9",
  )
  const rest = fc.oneof(
    fc.constantFrom("", "/", "/auth", "//", "/\\x", "?x", "#x", "/..", "/../..//evil.example"),
    wildString(8),
  )
  return fc.oneof(
    { arbitrary: fc.tuple(prefix, host, rest).map((parts) => parts.join("")), weight: 4 },
    { arbitrary: fc.array(nastyPiece, { maxLength: 6 }).map((pieces) => pieces.join("")), weight: 1 },
    { arbitrary: wildString(16), weight: 1 },
  )
}

describe("fuzz: the client's URL choice and basePath (CL-01, CL-02)", () => {
  afterEach(() => {
    configure({ basePath: "/api/auth" })
  })

  it(
    `CL-01 chooseDestination: ${FUZZ_RUNS} server answers and redirectTo values on random pages go nowhere, to the server's http(s) URL, or to an http(s) URL on the page's origin`,
    async () => {
      const cases = page.chain((href) => {
        const appHost = new URL(href).host
        return fc.record({ href: fc.constant(href), returned: returnedUrl(appHost), target: callbackUrl(appHost) })
      })
      await fuzz(
        FILE,
        fc.asyncProperty(cases, async ({ href, returned, target }) => {
          const chosen = chooseDestination(returned, target, href)
          let fromServer: URL | undefined
          try {
            if (returned !== undefined) fromServer = new URL(returned, href)
          } catch {
            fromServer = undefined
          }
          const serverHttp = fromServer && /^https?:$/.test(fromServer.protocol) ? fromServer : undefined
          // The server's http(s) URL always wins (it checked the callbackUrl; an OAuth answer is off-origin).
          if (serverHttp) expect(chosen).toBe(serverHttp.href)
          if (chosen === undefined) return
          // An absolute http(s) URL that parses to itself: the browser goes exactly where this check looked.
          expect(chosen).toMatch(/^https?:\/\/[^\s\\]/)
          expect(new URL(chosen).href).toBe(chosen)
          const sameOrigin = new URL(chosen).origin === new URL(href).origin
          expect(sameOrigin || chosen === serverHttp?.href).toBe(true)
        }),
      )
    },
    fuzzTimeout(1),
  )

  it(
    `CL-02 configure: ${FUZZ_RUNS} basePaths; an accepted one puts every auth route on the page's origin, a refused one changes nothing`,
    async () => {
      const cases = page.chain((href) => fc.record({ href: fc.constant(href), basePath: basePath(new URL(href).host) }))
      await fuzz(
        FILE,
        fc.asyncProperty(cases, async ({ href, basePath: candidate }) => {
          configure({ basePath: "/api/auth" })
          let accepted = true
          try {
            configure({ basePath: candidate })
          } catch (error) {
            accepted = false
            expect(String(error)).toMatch(/basePath must be a path on this origin/)
            expect(clientConfig().basePath).toBe("/api/auth")
          }
          if (!accepted) return
          const origin = new URL(href).origin
          for (const route of ROUTES) {
            const requestUrl = authUrl(route)
            // fetch() and location read a relative URL against the page, as new URL does here.
            expect(requestUrl).toMatch(/^\/(?![/\\])/)
            expect(new URL(requestUrl, href).origin).toBe(origin)
          }
        }),
      )
    },
    fuzzTimeout(1),
  )
})
