// Shared pieces of the fuzz properties in test/fuzz/: run counts and seeds from the environment, the runner that
// prints how to replay a failure, the checks every answer must pass, and arbitraries for hostile HTTP input.
import fc from "fast-check"
import { expect } from "vitest"
import { AuthError } from "../../src/errors.js"
import type { AuthConfig } from "../../src/index.js"
import { decode, encode } from "../../src/jwt/index.js"
import GitHub from "../../src/providers/github.js"
import { SECRET } from "../support/flow-kit.js"
import { csrfCookieValue } from "../support/jwe-forge.js"
import { htmlAttributeValues } from "../support/redirect-targets.js"

// ---------------------------------------------------------------------------------------------------------
// Runs, seeds, replay

function envInt(name: string): number | undefined {
  const raw = process.env[name]
  if (raw === undefined || raw.trim() === "") return undefined
  const n = Number(raw)
  if (!Number.isSafeInteger(n)) throw new Error(`${name} must be an integer, got ${JSON.stringify(raw)}`)
  return n
}

/** Cases per property: 2,000 in `npm test` and CI, 100,000 under `npm run fuzz`. */
export const FUZZ_RUNS = envInt("FUZZ_RUNS") ?? 2000
/** One seed per test file, random so every CI run explores new cases; FUZZ_SEED replays a reported failure. */
export const FUZZ_SEED = envInt("FUZZ_SEED") ?? Math.floor(Math.random() * 2 ** 31)
/** With FUZZ_SEED, FUZZ_PATH jumps straight to the shrunk counterexample a failure reported. */
const FUZZ_PATH = process.env.FUZZ_PATH || undefined

/** A vitest timeout for a property whose cases cost up to `msPerCase` each on a busy CI core. */
export function fuzzTimeout(msPerCase: number): number {
  return 30_000 + Math.ceil(FUZZ_RUNS * msPerCase)
}

/**
 * Runs a property FUZZ_RUNS times. On failure the error (and stderr) carry the shrunk counterexample and the
 * command line that replays it: the same FUZZ_SEED and FUZZ_PATH.
 */
export async function fuzz<Ts>(
  file: string,
  property: fc.IAsyncProperty<Ts>,
  /** Cases run before the random ones on every seed (fast-check's `examples`): paths a coverage check requires. */
  examples: Ts[] = [],
): Promise<void> {
  const out = await fc.check(property, {
    numRuns: FUZZ_RUNS,
    seed: FUZZ_SEED,
    examples,
    ...(FUZZ_PATH ? { path: FUZZ_PATH } : {}),
  })
  if (!out.failed) return
  const report = (await fc.asyncDefaultReportMessage(out)) ?? "property failed"
  const replay = `replay: FUZZ_SEED=${out.seed} FUZZ_PATH=${out.counterexamplePath ?? ""} npx vitest run ${file}`
  console.error(`[fuzz] ${replay}`)
  throw new Error(`${replay}\n${report}`, { cause: out.errorInstance })
}

// ---------------------------------------------------------------------------------------------------------
// Strings

/** Single characters and short sequences that break parsers: separators, escapes, controls, look-alikes, broken UTF-16. */
export const nastyPiece = fc.constantFrom(
  "/",
  "//",
  "\\",
  ".",
  "..",
  "%",
  "%2e",
  "%2E%2e",
  "%2f",
  "%2F",
  "%5c",
  "%00",
  "%zz",
  "%E0%A4%A",
  "%C0%AE",
  "%0d%0a",
  "%ff",
  "?",
  "#",
  "&",
  "=",
  ";",
  ",",
  ":",
  "@",
  '"',
  "'",
  "<",
  ">",
  "`",
  " ",
  "\t",
  "\r",
  "\n",
  "\r\n",
  "\u0000",
  "\u007f",
  "\u2028",
  "\ufeff",
  "\u202e",
  "é",
  "а",
  "ß",
  "İ",
  "𝒜",
  "😀",
  "\ud800",
  "\udfff",
  "\udc00\ud800",
  "ａｐｐ",
  "xn--",
  "[",
  "]",
  "javascript:",
  "data:",
  "http:",
  "https:",
  "null",
  "undefined",
  "__proto__",
  "constructor",
)

/** Any code point, the nasty pieces, and lone surrogates: what a hostile client can put in a URL, form or JSON. */
export const wildString = (maxLength = 24): fc.Arbitrary<string> =>
  fc.string({
    unit: fc.oneof(
      { arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }), weight: 2 },
      { arbitrary: nastyPiece, weight: 1 },
    ),
    maxLength,
  })

const LATIN1 = fc
  .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }), fc.constant(0x09))
  .map((c) => String.fromCharCode(c))

/** What a Headers value may hold (after its leading and trailing whitespace is trimmed). */
export const HEADER_SAFE = /^[\t\x20-\x7e\x80-\xff]*$/

/** A header value `Headers` accepts and an HTTP/1.1 parser lets through: latin1 without CR, LF, NUL or DEL. */
export const headerText = (maxLength = 30): fc.Arbitrary<string> => fc.string({ unit: LATIN1, maxLength })

/** Header values with a bias to the interesting ones. */
export const headerValue = (interesting: readonly string[], maxLength = 30): fc.Arbitrary<string> =>
  fc.oneof({ arbitrary: fc.constantFrom(...interesting), weight: 3 }, { arbitrary: headerText(maxLength), weight: 1 })

/** An RFC 9110 token (method and header names). */
export const token = (maxLength = 10): fc.Arbitrary<string> =>
  fc.stringMatching(new RegExp(`^[!#$%&'*+.^_\`|~0-9A-Za-z-]{1,${maxLength}}$`))

/** `value` cut at the given points (taken modulo its length); pieces may be empty. */
export function splitAt(value: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (value.length + 1)))].sort((a, b) => a - b)
  const out: string[] = []
  let at = 0
  for (const p of points) {
    out.push(value.slice(at, p))
    at = p
  }
  out.push(value.slice(at))
  return out
}

// ---------------------------------------------------------------------------------------------------------
// The app under test

export const APP_ORIGINS = [
  "http://localhost:3000",
  "https://app.example",
  "http://127.0.0.1:8080",
  "http://[::1]:3000",
  "https://xn--pp-8cd.example",
] as const
/** The provider the OAuth config points at: nothing listens on port 9 of 127.0.0.1, so nothing leaves the machine. */
export const PROVIDER_ORIGIN = "http://127.0.0.1:9"

/** The GitHub provider pointed at PROVIDER_ORIGIN (port 9: nothing listens, so a token call fails at once). */
export function unreachableGitHub(): AuthConfig["providers"][number] {
  return GitHub({
    clientId: "fuzz-client",
    clientSecret: "fuzz-secret",
    authorization: { url: `${PROVIDER_ORIGIN}/authorize` },
    token: { url: `${PROVIDER_ORIGIN}/token` },
    userinfo: { url: `${PROVIDER_ORIGIN}/user` },
  }) as AuthConfig["providers"][number]
}

export const CSRF_TOKEN = "c5f0".repeat(16)
/** An authentic CSRF cookie value for CSRF_TOKEN under SECRET, so fuzzed POSTs get past the CSRF guard. */
export const CSRF_COOKIE = csrfCookieValue(CSRF_TOKEN, SECRET)

export function sessionCookieName(secure: boolean): string {
  return `${secure ? "__Secure-" : ""}authjs.session-token`
}
export function csrfCookieName(secure: boolean): string {
  return `${secure ? "__Host-" : ""}authjs.csrf-token`
}

export interface ValidTokens {
  /** A session token for Alice small enough for one cookie. */
  short: string
  /** One whose claims make it several cookies long. */
  long: string
  shortClaims: Record<string, unknown>
  longClaims: Record<string, unknown>
}

/** Session tokens made by the public encode() for both cookie names (the name is the key-derivation salt). */
export async function validTokens(): Promise<Record<"http" | "https", ValidTokens>> {
  const make = async (secure: boolean): Promise<ValidTokens> => {
    const salt = sessionCookieName(secure)
    const base = { name: "Alice", email: "alice@example.com", sub: "user-1" }
    const short = await encode({ token: base, secret: SECRET, salt })
    const long = await encode({
      token: { ...base, picture: `https://img.example/${"p".repeat(9000)}` },
      secret: SECRET,
      salt,
    })
    const shortClaims = (await decode({ token: short, secret: SECRET, salt })) as Record<string, unknown>
    const longClaims = (await decode({ token: long, secret: SECRET, salt })) as Record<string, unknown>
    return { short, long, shortClaims, longClaims }
  }
  return { http: await make(false), https: await make(true) }
}

// ---------------------------------------------------------------------------------------------------------
// Cookies

/** One `name=value` pair of a Cookie header, or a raw piece (`=`, `x`, ``) when name is undefined. */
export interface CookiePiece {
  name?: string
  value: string
}

/** Cookie names near the session cookie's that must never be read as it. */
const NEAR_SESSION_NAMES = [
  "authjs.session-tokenx",
  "authjs.session-token-0",
  "xauthjs.session-token",
  "Authjs.session-token",
  "AUTHJS.SESSION-TOKEN.0",
  "authjs.session_token",
  "next-auth.session-token",
  "__Host-authjs.session-token",
  "authjs .session-token",
]
const OTHER_NAMES = [
  "authjs.csrf-token",
  "__Host-authjs.csrf-token",
  "authjs.callback-url",
  "__Secure-authjs.callback-url",
  "authjs.pkce.code_verifier",
  "authjs.state",
  "authjs.nonce",
  "a",
  "__proto__",
  "constructor",
  "toString",
]

/** A cookie value: garbage, separators, quotes and percent-escapes, but no `;` (that would change the pieces). */
export const cookieValue = fc.oneof(
  headerText(20).map((v) => v.replaceAll(";", "")),
  fc.constantFrom(
    "",
    "=",
    "==",
    '""',
    '"x"',
    "%",
    "%zz",
    "%E0%A4%A",
    "%3B",
    "a=b=c",
    "null",
    "undefined",
    "eyJ",
    "....",
  ),
)

/** Cookies a session read must ignore: other Gatehouse cookies, near-miss names, raw pieces such as `=x` or `;;`. */
export function noiseCookies(secure: boolean): fc.Arbitrary<CookiePiece[]> {
  const otherSecure = sessionCookieName(!secure)
  const name = fc.oneof(
    fc.constantFrom(...NEAR_SESSION_NAMES, ...OTHER_NAMES, otherSecure, `${otherSecure}.0`),
    fc.stringMatching(/^[A-Za-z0-9_.-]{1,12}$/).filter((n) => !n.startsWith("authjs.session-token")),
  )
  const piece = fc.oneof(
    { arbitrary: fc.record({ name, value: cookieValue }), weight: 4 },
    { arbitrary: fc.constantFrom("", "=", "=x", "x", "==", " ", "\t").map((value) => ({ value })), weight: 1 },
  )
  return fc.array(piece, { maxLength: 6 })
}

/** How the pieces are joined: browsers send `; `, hostile clients anything. */
export const cookieSeparator = fc.constantFrom("; ", ";", " ; ", ";;", "; ;", ";\t")

export function cookieHeader(pieces: readonly CookiePiece[], separator: string): string {
  return pieces.map((p) => (p.name === undefined ? p.value : `${p.name}=${p.value}`)).join(separator)
}

/**
 * What a session read must conclude from a layout: Alice's session (valid), none while expiring the cookies the
 * request carried (invalid), none with nothing to expire (absent), or either of the first two (a tampering that
 * may leave the token as it was, such as replacing a character by itself).
 */
export type SessionExpectation = "valid" | "invalid" | "absent" | "either"

export interface SessionLayout {
  kind: string
  pieces: CookiePiece[]
  expect: SessionExpectation
}

/**
 * The session cookie in one of its shapes: bare, chunked in any order with cuts anywhere, or broken the CK-09 ways
 * (a gap, a duplicate, chunked and bare together, a bad index), a tampered token, garbage, or 51 to 1,000 chunks
 * (DS-01). `expect` is derived from the shape alone: the only valid forms are the bare token, or chunks `.0`..`.n`
 * with no gap, no empty chunk and at most 50, the first occurrence of a name winning.
 */
export function sessionLayout(secure: boolean, tokens: ValidTokens): fc.Arbitrary<SessionLayout> {
  const bare = sessionCookieName(secure)
  const chunked = (value: string, cuts: number[]): CookiePiece[] =>
    splitAt(value, cuts)
      .filter((c) => c !== "")
      .map((v, i) => ({ name: `${bare}.${i}`, value: v }))
  const cuts = fc.array(fc.nat({ max: 20_000 }), { minLength: 1, maxLength: 6 })
  const anyToken = fc.constantFrom(tokens.short, tokens.long)
  const chunks = fc
    .tuple(anyToken, cuts)
    .map(([t, c]) => chunked(t, c))
    .filter((c) => c.length >= 2)

  // The common shapes (none, bare, chunked) six times as often as each broken one.
  const often = <T>(arbitrary: fc.Arbitrary<T>): fc.WeightedArbitrary<T> => ({ arbitrary, weight: 6 })
  return fc.oneof(
    often(fc.constant<SessionLayout>({ kind: "none", pieces: [], expect: "absent" })),
    often(anyToken.map((t) => ({ kind: "bare", pieces: [{ name: bare, value: t }], expect: "valid" as const }))),
    often(
      chunks
        .chain((c) => fc.shuffledSubarray(c, { minLength: c.length, maxLength: c.length }))
        .map((pieces) => ({ kind: "chunks in any order", pieces, expect: "valid" as const })),
    ),
    // A gap: one chunk missing (not the last, which would leave a shorter but well-formed, undecryptable token).
    fc.tuple(chunks, fc.nat()).map(([c, n]) => {
      const drop = n % (c.length - 1)
      return { kind: "chunk gap", pieces: c.filter((_, i) => i !== drop), expect: "invalid" as const }
    }),
    // The same chunk name twice: the first occurrence wins, so the order decides.
    fc.tuple(chunks, fc.nat(), cookieValue, fc.boolean()).map(([c, n, junk, junkFirst]) => {
      const at = n % c.length
      const dup = { name: c[at]!.name, value: junk === c[at]!.value ? `${junk}x` : junk }
      const pieces = [...c]
      pieces.splice(junkFirst ? at : at + 1, 0, dup)
      return {
        kind: junkFirst ? "duplicate chunk, junk first" : "duplicate chunk, junk after",
        pieces,
        expect: junkFirst ? ("invalid" as const) : ("valid" as const),
      }
    }),
    fc.tuple(chunks, anyToken, fc.boolean()).map(([c, t, bareFirst]) => ({
      kind: "bare and chunked together",
      pieces: bareFirst ? [{ name: bare, value: t }, ...c] : [...c, { name: bare, value: t }],
      expect: "invalid" as const,
    })),
    // ".²" and ". 0" are names no Set-Cookie can carry: they must not make the answer fail (found by this fuzzer, fixed in 80d3628).
    fc
      .tuple(chunks, fc.constantFrom("01", "-1", "1e1", "", "x", " 0", "0x0", "²", "50", "999", "1.0", "00"))
      .map(([c, suffix]) => ({
        kind: `bad chunk index .${suffix}`,
        pieces: [...c, { name: `${bare}.${suffix}`, value: "x" }],
        expect: "invalid" as const,
      })),
    fc
      .tuple(fc.constantFrom(tokens.short), tokenMutation)
      .map(([t, m]) => ({
        kind: `tampered (${m.kind})`,
        pieces: [{ name: bare, value: m.apply(t) }],
        expect: "either" as const,
      }))
      // A Cookie header is latin1 without controls; other tamperings go to getToken through a plain record.
      .filter((layout) => layout.pieces.every((p) => HEADER_SAFE.test(p.value))),
    fc.tuple(fc.constantFrom("", '""', " "), fc.boolean()).map(([v, chunk]) => ({
      kind: "empty value",
      pieces: chunk ? [{ name: `${bare}.0`, value: v }] : [{ name: bare, value: v }],
      expect: "invalid" as const,
    })),
    fc
      .tuple(
        fc.constantFrom(bare, `${bare}.0`, `${bare}.1`),
        cookieValue.filter((v) => v !== ""),
      )
      .map(([name, value]) => ({ kind: "garbage", pieces: [{ name, value }], expect: "invalid" as const })),
    fc.integer({ min: 51, max: 1000 }).map((n) => ({
      kind: `${n} chunks`,
      pieces: Array.from({ length: n }, (_, i) => ({ name: `${bare}.${i}`, value: "x" })),
      expect: "invalid" as const,
    })),
  )
}

// ---------------------------------------------------------------------------------------------------------
// Tokens

export interface Mutation {
  kind: string
  apply(token: string): string
}

/** Protected headers an attacker would try (CK-02), as JSON text so duplicate keys and `__proto__` survive. */
const HOSTILE_HEADERS = [
  '{"alg":"none"}',
  '{"alg":"dir","enc":"A128GCM"}',
  '{"alg":"dir","enc":"A128CBC-HS256"}',
  '{"alg":"RSA-OAEP","enc":"A256GCM"}',
  '{"alg":"PBES2-HS512+A256KW","enc":"A256CBC-HS512","p2c":2147483647,"p2s":"AAAA"}',
  '{"alg":"dir","enc":"A256CBC-HS512","zip":"DEF"}',
  '{"alg":"dir","enc":"A256CBC-HS512","crit":["exp"],"exp":1}',
  '{"alg":"dir","enc":"A256CBC-HS512","kid":"unknown"}',
  '{"alg":"dir","enc":"A256CBC-HS512","kid":7}',
  '{"alg":"dir","enc":"A256GCM"}',
  '{"alg":"HS256","typ":"JWT"}',
  '{"alg":"dir","enc":"A256CBC-HS512","__proto__":{"x":1}}',
  '{"alg":"none","alg":"dir","enc":"A256CBC-HS512"}',
  "[]",
  "null",
  "{",
]

const b64 = (s: string): string => Buffer.from(s).toString("base64url")

/** A mutation that prints as its kind in a counterexample. */
function mutation(kind: string, apply: (token: string) => string): Mutation {
  return { kind, apply, [fc.toStringMethod]: () => `mutation(${kind})` } as Mutation
}

/** Ways to damage a valid compact JWE: bit flips in any part, truncation, hostile headers, parts swapped or added. */
export const tokenMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.nat({ max: 4 }), fc.nat(), fc.nat({ max: 7 })).map(([part, at, bit]) =>
    mutation(`bit ${bit} of byte ${at} flipped in part ${part}`, (t) => {
      const parts = t.split(".")
      const bytes = Buffer.from(parts[part] ?? "", "base64url")
      if (bytes.length === 0) parts[part] = b64(String.fromCharCode(1 << bit))
      else {
        const i = at % bytes.length
        bytes[i] = bytes[i]! ^ (1 << bit)
        parts[part] = bytes.toString("base64url")
      }
      return parts.join(".")
    }),
  ),
  fc.nat().map((at) => mutation(`truncated at ${at}`, (t) => t.slice(0, at % t.length))),
  fc.tuple(fc.nat(), fc.constantFrom("A", "-", "_", ".", "=", "+", "/", " ", "%", "\u0000", "é")).map(([at, ch]) =>
    mutation(`character ${at} replaced by ${JSON.stringify(ch)}`, (t) => {
      const i = at % t.length
      return t.slice(0, i) + ch + t.slice(i + 1)
    }),
  ),
  fc
    .constantFrom(...HOSTILE_HEADERS)
    .map((h) => mutation(`header ${h}`, (t) => [b64(h), ...t.split(".").slice(1)].join("."))),
  fc
    .jsonValue({ maxDepth: 2 })
    .map((h) =>
      mutation(`header ${JSON.stringify(h)}`, (t) => [b64(JSON.stringify(h)), ...t.split(".").slice(1)].join(".")),
    ),
  fc.tuple(fc.nat({ max: 4 }), fc.nat({ max: 4 })).map(([a, b]) =>
    mutation(`parts ${a} and ${b} swapped`, (t) => {
      const parts = t.split(".")
      ;[parts[a], parts[b]] = [parts[b]!, parts[a]!]
      return parts.join(".")
    }),
  ),
  fc.constantFrom(
    mutation("encrypted key added", (t) => t.replace("..", ".AAAA.")),
    mutation("sixth part", (t) => `${t}.AAAA`),
    mutation("four parts", (t) => t.split(".").slice(0, 4).join(".")),
    mutation("JWS shape", (t) =>
      t
        .split(".")
        .filter((p) => p !== "")
        .slice(0, 3)
        .join("."),
    ),
    mutation("padding", (t) =>
      t
        .split(".")
        .map((p) => (p ? `${p}==` : p))
        .join("."),
    ),
    mutation("doubled", (t) => t + t),
    mutation("whitespace", (t) => ` ${t} `),
    mutation("200 KB", (t) => t + "A".repeat(200_001)),
  ),
)

// ---------------------------------------------------------------------------------------------------------
// Answers

/** Errors a bug in the library would throw; a logged error (or its cause) of these types is a failure. */
const BUG_ERRORS = [TypeError, RangeError, ReferenceError]

/** A logger that keeps what it is given, so a property can check every logged error is a deliberate AuthError. */
export function recordingLogger(): { logger: NonNullable<AuthConfig["logger"]>; errors: unknown[] } {
  const errors: unknown[] = []
  return {
    errors,
    logger: { error: (e: unknown) => void errors.push(e), warn: () => {}, debug: () => {} } as NonNullable<
      AuthConfig["logger"]
    >,
  }
}

/** No logged error is a crash in disguise: each is an AuthError, and none wraps a TypeError/RangeError/ReferenceError. */
export function expectOnlyAuthErrors(errors: readonly unknown[]): void {
  for (const error of errors) {
    expect(error, `logged a non-AuthError: ${String(error)}`).toBeInstanceOf(AuthError)
    for (
      let cause = (error as Error).cause, depth = 0;
      cause !== undefined && depth < 5;
      cause = (cause as Error).cause, depth++
    ) {
      for (const Bug of BUG_ERRORS)
        expect(cause instanceof Bug, `logged ${(error as AuthError).type} caused by ${String(cause)}`).toBe(false)
    }
  }
}

/** The origin a URL string resolves to against `base`, or undefined when it does not parse. */
export function originOf(value: string, base?: string): string | undefined {
  try {
    const url = new URL(value, base)
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : `${url.protocol}opaque`
  } catch {
    return undefined
  }
}

/**
 * Every place the answer sends the browser stays on one of `origins` (or `elsewhere`, e.g. the provider's
 * authorization endpoint): the Location header, a `{url}` JSON body, the callback-url cookie, and the URL
 * attributes of an HTML page, each read as a browser reads it (WHATWG URL). Locations are percent-encoded (RD-06).
 */
export async function expectStaysOn(
  res: Response,
  origins: ReadonlySet<string>,
  elsewhere: (url: URL) => boolean = () => false,
): Promise<void> {
  const check = (what: string, value: string, base?: string): void => {
    let url: URL | undefined
    try {
      url = new URL(value, base)
    } catch {
      url = undefined
    }
    expect(url, `${what} ${JSON.stringify(value)} does not parse`).toBeDefined()
    if (elsewhere(url!)) return
    expect(
      origins.has(url!.origin),
      `${what} ${JSON.stringify(value.slice(0, 200))} leaves ${[...origins].join(" | ")}`,
    ).toBe(true)
  }
  const location = res.headers.get("location")
  if (res.status >= 300 && res.status < 400) expect(location, `a ${res.status} without Location`).not.toBeNull()
  if (location !== null) {
    // Same-origin URLs are kept as written (Auth.js does too), so `hTtP:` or `https:\/` may remain; a browser reads them
    // as the app. What must never get through is a byte outside printable ASCII (RD-06, header injection).
    expect(location, "Location is printable ASCII").toMatch(/^[\x21-\x7e]+$/)
    check("Location", location)
  }
  for (const raw of res.headers.getSetCookie()) {
    const [pair = ""] = raw.split(";")
    const eq = pair.indexOf("=")
    const name = pair.slice(0, eq)
    const value = pair.slice(eq + 1)
    if (!/callback-url$/.test(name) || value === "") continue
    check("callback-url cookie", decodeURIComponent(value))
  }
  const type = res.headers.get("content-type") ?? ""
  const text = await res.clone().text()
  // A HEAD answer has no body (docs/wire-format.md §1.1); its Location and cookies were checked above.
  if (text === "") return
  if (type.startsWith("application/json")) {
    const body = JSON.parse(text) as { url?: unknown } | null
    if (body && typeof body.url === "string") check("JSON url", body.url)
  } else if (type.startsWith("text/html")) {
    const base = location ?? [...origins][0]
    for (const { name, value } of htmlAttributeValues(text)) {
      if (name === "content") continue
      // An inline image (the built-in provider logos are data:image/svg+xml) loads nothing and sends the browser nowhere.
      if (name === "src" && /^data:image\//i.test(value.trim())) continue
      // The page shell's empty inline icon (<link rel="icon" href="data:,">, src/pages/html.ts) loads nothing either.
      if (name === "href" && value === "data:,") continue
      // Values are URLs only when they look like one (a CSRF token is a relative reference to nothing).
      if (name === "value" && !/^[a-z][a-z0-9+.-]*:|^[/\\]{2}/i.test(value.trim())) continue
      check(`HTML ${name}`, value, base)
    }
  }
}

/** No 5xx, and a 405 names the methods it allows. */
export function expectNot5xx(res: Response): void {
  expect(res.status, `status ${res.status}`).toBeGreaterThanOrEqual(200)
  expect(res.status, `status ${res.status}`).toBeLessThan(500)
  if (res.status === 405) expect(res.headers.get("allow") ?? "").not.toBe("")
}

/** Collects unhandled rejections while a property runs (an escaped rejection would kill a node server). */
export function watchUnhandled(): { rejections: unknown[]; stop(): void } {
  const rejections: unknown[] = []
  const on = (reason: unknown): void => void rejections.push(reason)
  process.on("unhandledRejection", on)
  return { rejections, stop: () => void process.off("unhandledRejection", on) }
}

// ---------------------------------------------------------------------------------------------------------
// Requests

export const ACTIONS = [
  "session",
  "csrf",
  "providers",
  "signin",
  "signout",
  "callback",
  "error",
  "verify-request",
  "webauthn-options",
] as const

/** Methods: the common ones, lower-case and odd ones (any RFC 9110 token). `fetch` refuses CONNECT/TRACE/TRACK. */
export const requestMethod = fc.oneof(
  { arbitrary: fc.constantFrom("GET", "POST"), weight: 12 },
  {
    arbitrary: fc.constantFrom(
      "PUT",
      "DELETE",
      "HEAD",
      "OPTIONS",
      "PATCH",
      "get",
      "post",
      "Post",
      "PROPFIND",
      "QUERY",
      "M-SEARCH",
    ),
    weight: 2,
  },
  { arbitrary: token(8), weight: 1 },
)

/** Actions that take a provider id in the path. */
const WITH_PROVIDER = ["signin", "callback"] as const

/** One change to a good path, the RQ-01 kinds: case, slashes, dot segments, percent-encoding, extra segments. */
const pathMangle = fc.oneof(
  fc.constantFrom(
    (p: string) => p.toUpperCase(),
    (p: string) => `${p}/`,
    (p: string) => `${p}//`,
    (p: string) => p.replace("/auth/", "/auth//"),
    (p: string) => `/${p}`,
    (p: string) => p.replace("/auth/", "/auth/./"),
    (p: string) => p.replace("/auth/", "/auth/x/../"),
    (p: string) => p.replace("/auth/", "/auth/%2e%2e/"),
    (p: string) => p.replace("/auth/", "/auth%2f"),
    (p: string) => p.replace("/auth/", "/auth\\"),
    (p: string) => p.replace(/([a-z])/, (c) => `%${c.charCodeAt(0).toString(16)}`),
    (p: string) => p.replace(/([a-z])$/, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
    (p: string) => `${p}/extra`,
    (p: string) => `${p};x`,
    (p: string) => `${p}%00`,
    (p: string) => `${p}%`,
    (p: string) => `${p}%E0%A4%A`,
    (p: string) => p.replace("/auth", ""),
    (p: string) => `/base${p}`,
  ),
  wildString(6).map((w) => (p: string) => `${p}/${w}`),
  wildString(6).map((w) => (p: string) => `${p}${w}`),
)

/**
 * A request path: mostly a real route (so requests reach the handlers), often with one RQ-01 change, sometimes
 * built from junk segments, `//`, dot segments and encoded slashes.
 */
export function requestPath(providerIds: readonly string[]): fc.Arbitrary<string> {
  const provider = fc.oneof(
    { arbitrary: fc.constantFrom(...providerIds), weight: 6 },
    {
      arbitrary: fc.constantFrom(
        "unknown",
        "__proto__",
        "constructor",
        "prototype",
        "hasOwnProperty",
        "undefined",
        "toString",
        "CREDENTIALS",
        "credentials.",
        "%63redentials",
      ),
      weight: 1,
    },
    { arbitrary: wildString(8), weight: 1 },
  )
  const good = fc.oneof(
    fc.constantFrom(...ACTIONS).map((a) => `/auth/${a}`),
    fc.tuple(fc.constantFrom(...WITH_PROVIDER), provider).map(([a, p]) => `/auth/${a}/${p}`),
  )
  const junk = fc
    .tuple(
      fc.constantFrom("/auth", "/AUTH", "", "//auth", "/auth/.", "/x/../auth", "/auth%2f", "/%61uth", "/./auth"),
      fc.constantFrom("/", "//", "/./", "/../", "\\", "%2f"),
      fc.oneof(fc.constantFrom(...ACTIONS), fc.mixedCase(fc.constantFrom(...ACTIONS)), wildString(8)),
      fc.constantFrom("", "/", "//", "/.", "/..", "%2f", ";"),
    )
    .map((parts) => parts.join(""))
  return (
    fc
      .oneof(
        { arbitrary: good, weight: 6 },
        { arbitrary: fc.tuple(good, pathMangle).map(([p, mangle]) => mangle(p)), weight: 3 },
        { arbitrary: junk, weight: 1 },
      )
      // An origin-form target starts with "/"; anything else would be read as part of the host.
      .map((path) => (path.startsWith("/") ? path : `/${path}`))
  )
}

/** A crafted callbackUrl: the RD-01 forms composed from scheme, slashes, userinfo, host, port, path and fragment. */
export function craftedCallbackUrl(appHost: string): fc.Arbitrary<string> {
  const scheme = fc.constantFrom(
    "",
    "",
    "http:",
    "https:",
    "HTTPS:",
    "hTtP:",
    "javascript:",
    "data:",
    "ftp:",
    "file:",
    " https:",
    "\thttps:",
    "https;",
  )
  const slashes = fc.constantFrom(
    "//",
    "//",
    "/",
    "",
    "\\\\",
    "/\\",
    "\\/",
    "///",
    "/%2F",
    "%2F%2F",
    "/\t/",
    "/\n/",
    "/\r\n/",
    " //",
    "/%09/",
    "/%5c",
  )
  const userinfo = fc.constantFrom("", "", "", `${appHost}@`, "user:pass@", "@", `${appHost}%40`, `${appHost}:@`)
  const host = fc.constantFrom(
    appHost,
    appHost,
    "evil.example",
    `${appHost}.evil.example`,
    `evil-${appHost}`,
    `x${appHost}`,
    `${appHost.toUpperCase()}.`,
    "аpp.example",
    "xn--pp-8cd.example",
    "127.0.0.1",
    "[::1]",
    "0x7f.1",
    "%65vil.example",
    "evil.example%00",
    "evil。example",
    "",
  )
  const port = fc.constantFrom("", "", "", ":443", ":80", ":3000", ":8080", ":0", ":99999", ":")
  const path = fc.oneof(
    fc.constantFrom(
      "",
      "/",
      "/dashboard",
      "/%0d%0aSet-Cookie:x=y",
      "/\r\nSet-Cookie: x=y",
      "/a/../../b",
      "/%2e%2e/",
      "/?next=//evil.example",
      "/#@evil.example",
      "/é",
      "/\u2028",
    ),
    wildString(10).map((w) => `/${w}`),
  )
  const suffix = fc.constantFrom(
    "",
    "",
    "#",
    "#@evil.example",
    "?x=https://evil.example",
    "@evil.example",
    "\\@evil.example",
  )
  return fc.tuple(scheme, slashes, userinfo, host, port, path, suffix).map((parts) => parts.join(""))
}

/** Very long callbackUrls (DS-05): near and over the 8 KiB limit, up to 100 KB, with pathological repeats. */
export const longCallbackUrl = fc
  .tuple(
    fc.constantFrom("/", "//", "%", "%2", "a", "/.", "?", "#", "\\", "/a@", "é", "%00"),
    fc.constantFrom(4000, 8191, 8192, 8193, 20_000, 100_000),
    fc.constantFrom("", "/", "https://evil.example"),
  )
  .map(([unit, length, prefix]) =>
    (prefix + unit.repeat(Math.ceil(length / unit.length))).slice(0, length + prefix.length),
  )

/** Any callbackUrl: crafted, random text, generated web URLs, or very long. */
export function callbackUrl(appHost: string): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: craftedCallbackUrl(appHost), weight: 6 },
    { arbitrary: wildString(30), weight: 2 },
    { arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }), weight: 1 },
    { arbitrary: longCallbackUrl, weight: 1 },
  )
}

/** Query-string keys the handlers read, and others. */
const QUERY_KEYS = [
  "callbackUrl",
  "callbackUrl",
  "error",
  "csrfToken",
  "code",
  "state",
  "iss",
  "nonce",
  "oauth_token",
  "oauth_verifier",
  "denied",
  "provider",
  "json",
]

/** A query string: known keys (repeated sometimes) with wild or crafted values, joined encoded or raw. */
export function requestQuery(appHost: string): fc.Arbitrary<string> {
  const key = fc.oneof(
    { arbitrary: fc.constantFrom(...QUERY_KEYS), weight: 4 },
    { arbitrary: wildString(6), weight: 1 },
  )
  const value = fc.oneof(
    callbackUrl(appHost).filter((v) => v.length < 10_000),
    wildString(12),
  )
  const pair = fc
    .tuple(key, value, fc.boolean())
    .map(([k, v, encoded]) => (encoded ? new URLSearchParams([[k, v]]).toString() : `${k}=${v}`))
  return fc.oneof(
    fc.constant(""),
    fc.array(pair, { minLength: 1, maxLength: 4 }).map((pairs) => `?${pairs.join("&")}`),
  )
}

/** A request body and the Content-Type sent with it; the two are chosen apart so they often disagree (RQ-04). */
export interface BodyCase {
  kind: string
  contentType: string | undefined
  /** Bytes, text, or a stream that sends the text in pieces with no length (RQ-03 chunked). */
  body: () => BodyInit
  /** Body length in bytes when known. */
  size: number
}

export const FORM = "application/x-www-form-urlencoded"
export const JSON_TYPE = "application/json"
/** Content types that must never be parsed as a form or JSON. */
export const OTHER_TYPES = [
  "text/plain",
  "multipart/form-data; boundary=x",
  "application/jsonx",
  "application/x-www-form-urlencodedx",
  "text/html",
  "application/xml",
  "application/json-patch+json",
  "form",
  "*/*",
]

/** Form or JSON fields the handlers read, with values that often get a request past CSRF and authorize(). */
function bodyFields(appHost: string): fc.Arbitrary<[string, string][]> {
  const field = fc.oneof(
    fc.tuple(
      fc.constant("csrfToken"),
      fc.oneof(
        { arbitrary: fc.constant(CSRF_TOKEN), weight: 4 },
        { arbitrary: wildString(10), weight: 1 },
        { arbitrary: fc.constant(CSRF_TOKEN.toUpperCase()), weight: 1 },
      ),
    ),
    fc.tuple(
      fc.constant("callbackUrl"),
      callbackUrl(appHost).filter((v) => v.length < 10_000),
    ),
    fc.tuple(
      fc.constant("username"),
      fc.oneof(fc.constantFrom("alice", "bob", "Alice", "alice ", "__proto__"), wildString(8)),
    ),
    fc.tuple(fc.constant("password"), fc.oneof(fc.constantFrom("password", "", "password\u0000"), wildString(8))),
    fc.tuple(
      fc.constantFrom("__proto__", "constructor", "prototype", "data", "redirect", "json", "toString"),
      wildString(8),
    ),
    fc.tuple(wildString(6), wildString(8)),
  )
  const good = fc.constant<[string, string][]>([
    ["csrfToken", CSRF_TOKEN],
    ["username", "alice"],
    ["password", "password"],
  ])
  return fc.oneof(
    fc.array(field, { maxLength: 6 }),
    fc
      .tuple(good, fc.array(field, { maxLength: 3 }), fc.boolean())
      .map(([g, extra, first]) => (first ? [...g, ...extra] : [...extra, ...g])),
  )
}

const encoder = new TextEncoder()

function streamOf(text: string, pieces: number): ReadableStream<Uint8Array> {
  const bytes = encoder.encode(text)
  const size = Math.max(1, Math.ceil(bytes.length / pieces))
  let at = 0
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close()
      controller.enqueue(bytes.slice(at, (at += size)))
    },
  })
}

/** Bodies: forms, JSON objects and values, invalid JSON, text, bytes, streams without a length, and oversized ones. */
export function requestBody(appHost: string): fc.Arbitrary<BodyCase> {
  const fields = bodyFields(appHost)
  const form = fields.map((f) => new URLSearchParams(f).toString())
  const json = fc.oneof(
    fields.map((f) => JSON.stringify(Object.fromEntries(f))),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    fc.constantFrom(
      "",
      " ",
      "{",
      "[]",
      "null",
      '"x"',
      "1",
      "{}",
      '{"__proto__":{"admin":true}}',
      '{"csrfToken":1}',
      '{"csrfToken":["a"]}',
      "\ufeff{}",
      '{"a":"\\ud800"}',
    ),
  )
  const text = fc.oneof(wildString(60), form, json)
  const contentType = (matching: string): fc.Arbitrary<string | undefined> =>
    fc.oneof(
      { arbitrary: fc.constant(matching), weight: 6 },
      {
        arbitrary: fc.constantFrom(`${matching}; charset=utf-8`, matching.toUpperCase(), ` ${matching} ;;`),
        weight: 1,
      },
      { arbitrary: fc.constantFrom(FORM, JSON_TYPE, ...OTHER_TYPES), weight: 2 },
      { arbitrary: fc.constant(undefined), weight: 1 },
      { arbitrary: headerText(20), weight: 1 },
    )
  const textCase = (kind: string, arb: fc.Arbitrary<string>, matching: string): fc.Arbitrary<BodyCase> =>
    fc
      .tuple(arb, contentType(matching))
      .map(([t, type]) => ({ kind, contentType: type, body: () => t, size: encoder.encode(t).length }))
  return fc.oneof(
    { arbitrary: textCase("form", form, FORM), weight: 6 },
    { arbitrary: textCase("json", json, JSON_TYPE), weight: 4 },
    { arbitrary: textCase("text", wildString(60), "text/plain"), weight: 1 },
    {
      arbitrary: fc
        .tuple(fc.uint8Array({ maxLength: 64 }), contentType(FORM))
        .map(([b, type]) => ({ kind: "bytes", contentType: type, body: () => b.slice(), size: b.length })),
      weight: 1,
    },
    {
      arbitrary: fc.tuple(text, fc.integer({ min: 1, max: 5 }), contentType(FORM)).map(([t, pieces, type]) => ({
        kind: "stream",
        contentType: type,
        body: () => streamOf(t, pieces),
        size: encoder.encode(t).length,
      })),
      weight: 1,
    },
    {
      // Around the limits (64 KiB form, 1 MiB JSON): kept rare, they cost a read each.
      arbitrary: fc
        .tuple(
          fc.constantFrom(64 * 1024 - 40, 64 * 1024 + 1, 200 * 1024, 1024 * 1024 + 1),
          fc.constantFrom(FORM, JSON_TYPE, "text/plain"),
          fc.boolean(),
        )
        .map(([n, type, stream]) => {
          const t =
            type === JSON_TYPE
              ? `{"csrfToken":"${CSRF_TOKEN}","x":"${"a".repeat(n)}"}`
              : `csrfToken=${CSRF_TOKEN}&x=${"a".repeat(n)}`
          return {
            kind: `${t.length} bytes${stream ? " streamed" : ""}`,
            contentType: type,
            body: () => (stream ? streamOf(t, 8) : t),
            size: t.length,
          }
        }),
      weight: 1,
    },
  )
}

export interface HeaderCase {
  [name: string]: string | undefined
}

/**
 * Headers a client controls that the handlers read: X-Forwarded-Host/Proto, Origin, Sec-Fetch-Site, Authorization,
 * X-Auth-Return-Redirect, and one random header. (Cookie and Content-Type are chosen with the cookies and the body.)
 */
export function requestHeaders(appOrigin: string): fc.Arbitrary<HeaderCase> {
  // Each header is absent most of the time, so the requests that pass the guards still reach the handlers.
  const opt = (arb: fc.Arbitrary<string>): fc.Arbitrary<string | undefined> =>
    fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: arb, weight: 1 })
  return fc.record({
    "x-forwarded-host": opt(
      headerValue([
        "app.example",
        "evil.example",
        "evil.example, app.example",
        "app.example:8443",
        "",
        ",",
        "exa mple",
        "a@b@c",
        "[::1]",
        "[",
        "app.example/path",
        "évil.example",
        "app.example:99999",
        "localhost:3000",
      ]),
    ),
    "x-forwarded-proto": opt(
      headerValue(["https", "http", "HTTPS", "https, http", "http, https", "ftp", "", "javascript"]),
    ),
    origin: opt(
      headerValue([
        "null",
        appOrigin,
        "https://evil.example",
        appOrigin.replace(/^https?/, (s) => (s === "http" ? "https" : "http")),
        `${appOrigin}/`,
        appOrigin.toUpperCase(),
      ]),
    ),
    "sec-fetch-site": opt(headerValue(["same-origin", "same-site", "cross-site", "none", "CROSS-SITE", ""])),
    authorization: opt(
      headerValue(["Bearer ", "Bearer %", "Bearer %E0%A4%A", "bearer x", "Basic YTpi", `Bearer ${"A".repeat(70_000)}`]),
    ),
    "x-auth-return-redirect": opt(headerValue(["1", "true", ""])),
    "x-fuzz": opt(headerText(40)),
  })
}

// ---------------------------------------------------------------------------------------------------------
// Reach

/**
 * Counts the outcomes a property's cases reached, so a property whose arbitraries stop reaching the handlers
 * (every case a 400, say) fails instead of passing on nothing. Checked only at full CI size or more, and not on a
 * replay: a short debugging run (FUZZ_RUNS below 2,000) may miss a rare outcome, a replay runs one case.
 */
export class Reached {
  readonly counts = new Map<string, number>()
  add(label: string): void {
    this.counts.set(label, (this.counts.get(label) ?? 0) + 1)
  }
  expect(labels: readonly string[]): void {
    if (FUZZ_RUNS < 2000 || FUZZ_PATH !== undefined) return
    for (const label of labels)
      expect(
        this.counts.get(label) ?? 0,
        `no case reached "${label}" (FUZZ_SEED=${FUZZ_SEED}); reached: ${JSON.stringify(Object.fromEntries(this.counts))}`,
      ).toBeGreaterThan(0)
  }
}
