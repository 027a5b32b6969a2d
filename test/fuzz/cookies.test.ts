// Fuzz: the Cookie header and session chunks through GET /auth/session. The expectation comes from the
// shape the session cookie was given (bare, chunked in any order, or broken the CK-09 ways) amid other cookies and
// raw pieces, so the property checks the answer itself, not only that there is one.
import fc from "fast-check"
import { beforeAll, describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import { decode } from "../../src/jwt/index.js"
import { SECRET, makeConfig } from "../support/flow-kit.js"
import { setCookies, isDeletion } from "../support/cookies.js"
import {
  APP_ORIGINS,
  FUZZ_RUNS,
  Reached,
  type CookiePiece,
  type SessionLayout,
  type ValidTokens,
  cookieHeader,
  cookieSeparator,
  expectNot5xx,
  expectOnlyAuthErrors,
  fuzz,
  fuzzTimeout,
  noiseCookies,
  recordingLogger,
  sessionCookieName,
  sessionLayout,
  validTokens,
} from "./arbitraries.js"

const FILE = "test/fuzz/cookies.test.ts"
const MAX_COOKIE_HEADER = 64 * 1024
/** A cookie name a Set-Cookie can carry (RFC 6265 §4.1.1: an RFC 2616 token). */
const COOKIE_NAME_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

let tokens: Record<"http" | "https", ValidTokens>
beforeAll(async () => {
  tokens = await validTokens()
})

interface Case {
  origin: string
  secure: boolean
  layout: SessionLayout
  before: CookiePiece[]
  after: CookiePiece[]
  separator: string
  /** Now and then one large cookie that takes the header over 64 KiB (DS-01). */
  padding: CookiePiece[]
}

const cookieCase: fc.Arbitrary<Case> = fc.constantFrom(...APP_ORIGINS).chain((origin) => {
  const secure = origin.startsWith("https:")
  return fc.record({
    origin: fc.constant(origin),
    secure: fc.constant(secure),
    layout: sessionLayout(secure, tokens[secure ? "https" : "http"]),
    before: noiseCookies(secure),
    after: noiseCookies(secure),
    separator: cookieSeparator,
    padding: fc.oneof(
      { arbitrary: fc.constant<CookiePiece[]>([]), weight: 40 },
      {
        arbitrary: fc.integer({ min: 60_000, max: 70_000 }).map((n) => [{ name: "pad", value: "a".repeat(n) }]),
        weight: 1,
      },
    ),
  })
})

/** The session cookies a browser holds: the request's (first occurrence of a name wins), then the answer's Set-Cookie. */
function browserSessionCookies(c: Case, res: Response): Map<string, string> {
  const name = sessionCookieName(c.secure)
  const isSession = (n: string): boolean => n === name || n.startsWith(`${name}.`)
  const jar = new Map<string, string>()
  // Values as RFC 6265 §5.2 reads them: surrounding whitespace dropped (and a quoted value unquoted, as the server does).
  const read = (v: string): string => v.trim().replace(/^"(.*)"$/, "$1")
  for (const p of [...c.before, ...c.layout.pieces, ...c.after])
    if (p.name !== undefined && isSession(p.name) && !jar.has(p.name)) jar.set(p.name, read(p.value))
  for (const [n, cookie] of setCookies(res)) {
    if (!isSession(n)) continue
    if (isDeletion(cookie)) jar.delete(n)
    else jar.set(n, cookie.value)
  }
  return jar
}

/** The token a jar holds in a well-formed shape (bare alone, or `.0`..`.n` with no gap), else undefined. */
function wellFormedToken(jar: Map<string, string>, name: string): string | undefined {
  if (jar.has(name)) return jar.size === 1 ? jar.get(name) : undefined
  const parts: string[] = []
  for (let i = 0; i < jar.size; i++) {
    const part = jar.get(`${name}.${i}`)
    if (part === undefined) return undefined
    parts.push(part)
  }
  return parts.length > 0 ? parts.join("") : undefined
}

describe("fuzz: Cookie header and session chunks → GET /auth/session", () => {
  it(
    `CK-01 CK-03 CK-09 DS-01 RQ-05 ${FUZZ_RUNS} Cookie headers (bare, chunked in any order, gaps, duplicates, bare and chunked together, bad indexes, tampered tokens, garbage, up to 1,000 chunks, among other cookies and raw ';;'/'=' pieces): Alice's session exactly when the shape is valid, else null with every session cookie expired; 431 over 64 KiB`,
    async () => {
      const { logger, errors } = recordingLogger()
      const config = makeConfig({ logger })
      const reached = new Reached()
      await fuzz(
        FILE,
        fc.asyncProperty(cookieCase, async (c) => {
          errors.length = 0
          const header = cookieHeader([...c.before, ...c.layout.pieces, ...c.after, ...c.padding], c.separator)
          const res = await Auth(new Request(`${c.origin}/auth/session`, { headers: { cookie: header } }), config)
          expectNot5xx(res)
          expectOnlyAuthErrors(errors)
          if (new Headers({ cookie: header }).get("cookie")!.length > MAX_COOKIE_HEADER) {
            expect(res.status).toBe(431)
            reached.add("431")
            return
          }
          expect(res.status).toBe(200)
          const body = (await res.json()) as { user?: { name?: string } } | null
          let expected = c.layout.expect
          if (expected === "either") expected = body === null ? "invalid" : "valid"
          reached.add(expected)

          // What the browser holds afterwards: a session that still reads as Alice's, or no session cookie at all.
          const name = sessionCookieName(c.secure)
          const jar = browserSessionCookies(c, res)
          if (expected === "valid") {
            expect(body?.user?.name, `layout "${c.layout.kind}" is valid`).toBe("Alice")
            const token = wellFormedToken(jar, name)
            expect(
              token,
              `after "${c.layout.kind}" the browser holds a well-formed session: ${[...jar.keys()].join(", ")}`,
            ).toBeDefined()
            const claims = await decode({ token: token!, secret: SECRET, salt: name })
            expect(claims?.name).toBe("Alice")
          } else {
            expect(body, `layout "${c.layout.kind}" reads as no session`).toBeNull()
            // A name that is not an RFC 6265 token (".²", ". 0") cannot be named in a Set-Cookie; only those may remain.
            const clearable = [...jar.keys()].filter((n) => COOKIE_NAME_TOKEN.test(n))
            expect(clearable, `after "${c.layout.kind}" every session cookie is expired`).toEqual([])
          }
        }),
      )
      reached.expect(["valid", "invalid", "absent", "431"])
    },
    fuzzTimeout(10),
  )
})
