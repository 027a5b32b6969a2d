// Fuzz: the public gatehouse/jwt. decode() on random strings, JWE-shaped junk and damaged valid tokens
// resolves null only for an empty token and otherwise rejects with the documented errors alone (JWTSessionError, or
// MissingSecret without a secret), unless the damage left the token as it was; getToken() on any request never
// rejects and returns only a token we issued, or null.
import fc from "fast-check"
import { beforeAll, describe, expect, it } from "vitest"
import { JWTSessionError, MissingSecret } from "../../src/errors.js"
import { decode, encode, getToken } from "../../src/jwt/index.js"
import { SECRET } from "../support/flow-kit.js"
import {
  FUZZ_RUNS,
  HEADER_SAFE,
  Reached,
  type ValidTokens,
  cookieHeader,
  cookieSeparator,
  fuzz,
  fuzzTimeout,
  headerValue,
  noiseCookies,
  sessionLayout,
  tokenMutation,
  validTokens,
  wildString,
} from "./arbitraries.js"

const FILE = "test/fuzz/jwt.test.ts"
const OTHER_SECRET = "another-secret-that-is-at-least-32-characters"

let tokens: Record<"http" | "https", ValidTokens>
beforeAll(async () => {
  tokens = await validTokens()
})

const b64url = fc.oneof(
  fc.base64String({ maxLength: 64 }).map((s) => s.replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "")),
  wildString(12),
)

/** Strings shaped like compact JWEs and JWSs: random or hostile JSON headers over random parts. */
const jweShaped = fc
  .tuple(
    fc.oneof(
      fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
      fc.constantFrom(
        '{"alg":"dir","enc":"A256CBC-HS512"}',
        '{"alg":"dir","enc":"A256GCM"}',
        '{"alg":"none"}',
        '{"alg":"dir","enc":"A256CBC-HS512","kid":""}',
      ),
      wildString(10),
    ),
    fc.array(b64url, { minLength: 0, maxLength: 6 }),
  )
  .map(([header, rest]) => [Buffer.from(header).toString("base64url"), ...rest].join("."))

const anyTokenString = fc.oneof(fc.constant(""), wildString(200), fc.string({ maxLength: 300 }), jweShaped)

/** Secrets and salts as callers pass them, some missing or empty. */
const secretParam = fc.oneof(
  {
    arbitrary: fc.constantFrom<string | string[] | undefined>(SECRET, [OTHER_SECRET, SECRET], [SECRET, OTHER_SECRET]),
    weight: 6,
  },
  { arbitrary: fc.constantFrom<string | string[] | undefined>(OTHER_SECRET, [OTHER_SECRET]), weight: 2 },
  { arbitrary: fc.constantFrom<string | string[] | undefined>(undefined, "", [], [""], [SECRET, ""]), weight: 1 },
)
const saltParam = fc.oneof(
  { arbitrary: fc.constantFrom("authjs.session-token", "__Secure-authjs.session-token"), weight: 6 },
  { arbitrary: fc.constantFrom("", "authjs.csrf-token"), weight: 1 },
)

function hasSecret(secret: string | string[] | undefined): boolean {
  const list = Array.isArray(secret) ? secret : secret ? [secret] : []
  return list.length > 0 && list.every((s) => s !== "")
}

/** decode() settles; the rejection, if any, as the error. */
async function settle(p: Promise<unknown>): Promise<{ value?: unknown; error?: unknown }> {
  try {
    return { value: await p }
  } catch (error) {
    return { error }
  }
}

describe("fuzz: gatehouse/jwt decode and getToken", () => {
  it(
    `CK-03 decode: ${FUZZ_RUNS} random strings and JWE/JWS-shaped junk resolve null only when empty, else reject with JWTSessionError (MissingSecret without a secret), never anything else`,
    async () => {
      const reached = new Reached()
      await fuzz(
        FILE,
        fc.asyncProperty(anyTokenString, secretParam, saltParam, async (token, secret, salt) => {
          const out = await settle(decode({ token, secret: secret as string, salt }))
          if (token === "") {
            expect(out).toEqual({ value: null })
            return reached.add("empty")
          }
          expect(out.error, "a non-empty junk token never decodes").toBeDefined()
          const expected = !hasSecret(secret) && salt !== "" ? MissingSecret : JWTSessionError
          expect(out.error, String(out.error)).toBeInstanceOf(expected)
          reached.add(expected.name)
        }),
      )
      reached.expect(["empty", "JWTSessionError", "MissingSecret"])
    },
    fuzzTimeout(2),
  )

  it(
    `CK-01 CK-02 decode: ${FUZZ_RUNS} valid tokens with random claims, then damaged (bit flips in any part, truncation, hostile or random headers, parts swapped, added or dropped), reject with JWTSessionError or decode to exactly the original claims`,
    async () => {
      const reached = new Reached()
      const claims = fc.dictionary(
        fc.string({ maxLength: 8 }).filter((k) => !["iat", "exp", "jti", "__proto__"].includes(k)),
        fc.jsonValue({ maxDepth: 2 }),
        { maxKeys: 5 },
      )
      const salt = fc.constantFrom("authjs.session-token", "__Secure-authjs.session-token")
      await fuzz(
        FILE,
        fc.asyncProperty(
          claims,
          salt,
          tokenMutation,
          fc.constantFrom<string | string[]>(SECRET, [OTHER_SECRET, SECRET]),
          async (c, s, mutation, secret) => {
            const original = await encode({ token: c, secret: SECRET, salt: s })
            const clean = await decode({ token: original, secret, salt: s })
            const damaged = mutation.apply(original)
            const out = await settle(decode({ token: damaged, secret, salt: s }))
            if (damaged === "") {
              expect(out, "an empty token is no token").toEqual({ value: null })
              reached.add("empty")
            } else if (out.error !== undefined) {
              expect(out.error, `${mutation.kind}: ${String(out.error)}`).toBeInstanceOf(JWTSessionError)
              reached.add("rejected")
            } else {
              expect(out.value, `${mutation.kind} decoded to something else`).toEqual(clean)
              reached.add("unchanged")
            }
          },
        ),
      )
      reached.expect(["rejected"])
    },
    fuzzTimeout(3),
  )

  it(
    `CK-11 getToken: ${FUZZ_RUNS} requests (session cookies in every shape among other cookies, Authorization: Bearer with valid, percent-encoded, badly encoded, 64 KB or junk tokens; Headers or a plain record) never reject and return only a token we issued, or null`,
    async () => {
      const reached = new Reached()
      const bearer = (t: ValidTokens): fc.Arbitrary<string | undefined> =>
        fc.oneof(
          { arbitrary: fc.constant(undefined), weight: 4 },
          {
            arbitrary: fc.constantFrom(
              `Bearer ${t.short}`,
              `Bearer ${encodeURIComponent(t.short)}`,
              `Bearer  ${t.short} `,
              `Bearer ${t.long}`,
            ),
            weight: 2,
          },
          {
            arbitrary: headerValue([
              "Bearer ",
              "Bearer %",
              "Bearer %E0%A4%A",
              "Bearer %zz",
              "bearer x",
              "Bearer",
              "Basic YTpi",
              `Bearer ${"A".repeat(65_536)}`,
              `Bearer ${"%41".repeat(22_000)}`,
            ]),
            weight: 2,
          },
          { arbitrary: tokenMutation.map((m) => `Bearer ${m.apply(t.short)}`), weight: 1 },
        )
      const request = fc.boolean().chain((secure) => {
        const t = tokens[secure ? "https" : "http"]
        return fc.record({
          secure: fc.constant(secure),
          // Which name getToken looks under: the layout's, or the other (then the cookie is not its session).
          secureCookie: fc.oneof(
            { arbitrary: fc.constant(secure), weight: 4 },
            { arbitrary: fc.constant(!secure), weight: 1 },
          ),
          layout: sessionLayout(secure, t),
          noise: noiseCookies(secure),
          separator: cookieSeparator,
          authorization: bearer(t),
          plainRecord: fc.boolean(),
          splitCookie: fc.boolean(),
          raw: fc.boolean(),
        })
      })
      await fuzz(
        FILE,
        fc.asyncProperty(request, async (r) => {
          const pieces = [...r.noise, ...r.layout.pieces]
          const header = cookieHeader(pieces, r.separator)
          let headers: Headers | Record<string, string | string[] | undefined>
          // Headers refuses controls (a tampered token may hold a NUL); a plain record takes anything.
          if (r.plainRecord || (r.authorization !== undefined && !HEADER_SAFE.test(r.authorization))) {
            // Node's IncomingMessage style: lower-case names, maybe several Cookie lines.
            const cookie = r.splitCookie ? pieces.map((p) => cookieHeader([p], "")) : header
            headers = { cookie: pieces.length ? cookie : undefined, authorization: r.authorization }
          } else {
            headers = new Headers()
            if (pieces.length) headers.set("cookie", header)
            if (r.authorization !== undefined) headers.set("authorization", r.authorization)
          }
          const out = await settle(
            getToken({ req: { headers }, secret: SECRET, secureCookie: r.secureCookie, raw: r.raw }),
          )
          expect(out.error, `getToken rejected: ${String(out.error)}`).toBeUndefined()
          const t = tokens[r.secure ? "https" : "http"]
          if (r.raw) {
            expect(out.value === null || typeof out.value === "string").toBe(true)
            return reached.add(out.value === null ? "raw null" : "raw token")
          }
          if (out.value !== null) {
            expect([t.shortClaims, t.longClaims], "getToken returned claims we never issued").toContainEqual(out.value)
            reached.add("claims")
          } else reached.add("null")
          // A well-formed session cookie under the name getToken reads wins over any Authorization header.
          if (r.layout.expect === "valid" && r.secureCookie === r.secure)
            expect(out.value, `layout "${r.layout.kind}"`).not.toBeNull()
          if ((r.layout.expect === "invalid" || r.layout.expect === "absent") && r.authorization === undefined)
            expect(out.value).toBeNull()
        }),
      )
      reached.expect(["claims", "null", "raw null", "raw token"])
    },
    fuzzTimeout(3),
  )
})
