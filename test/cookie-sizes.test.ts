// Measured session cookie sizes for docs/guide.md "Cookie budget": a typical GitHub and a typical Google sign-in, with
// the provider tokens in the cookie (the usual Auth.js recipe: the jwt callback copies them from `account`) and with
// `session.tokens: "server"` (the callback copies nothing; the tokens are in the store, `token.account` on reads).
// The sign-in goes through the JWT strategy's issue, as /callback/<id> does after the provider answered. Token shapes
// and lengths follow what the providers issue: GitHub `gho_` + 36 characters, no refresh token; Google an access token
// of ~220 characters, a refresh token of ~103, an RS256 ID token of ~1,000, `expires_at`. Run with
// `npx vitest run test/cookie-sizes.test.ts` to print the table.
import { randomBytes, randomUUID } from "node:crypto"
import { describe, expect, it } from "vitest"
import type { AuthRequest } from "../src/pipeline-types.js"
import { resolveConfig } from "../src/config/resolve.js"
import GitHub from "../src/providers/github.js"
import Google from "../src/providers/google.js"
import type { Account, AuthConfig, Cookie, JWT } from "../src/types.js"
import { MemoryStore } from "../src/stores/memory.js"
import { SECRET } from "./support/flow-kit.js"

const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
/** `n` random characters of [A-Za-z0-9] (tokens are random: nothing in them compresses or repeats). */
function randomText(n: number, alphabet = chars): string {
  const bytes = randomBytes(n)
  let out = ""
  for (const b of bytes) out += alphabet[b % alphabet.length]
  return out
}
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")

/** An RS256 ID token as Google issues it: kid header, the usual claims, a 2048-bit signature (342 characters). */
function googleIdToken(sub: string, email: string, name: string, picture: string): string {
  const now = Math.floor(Date.now() / 1000)
  const header = { alg: "RS256", kid: randomBytes(20).toString("hex"), typ: "JWT" }
  const payload = {
    iss: "https://accounts.google.com",
    azp: `${randomText(12, "0123456789")}-${randomText(32).toLowerCase()}.apps.googleusercontent.com`,
    aud: `${randomText(12, "0123456789")}-${randomText(32).toLowerCase()}.apps.googleusercontent.com`,
    sub,
    email,
    email_verified: true,
    at_hash: randomBytes(16).toString("base64url"),
    nonce: randomBytes(32).toString("base64url"),
    name,
    picture,
    given_name: name.split(" ")[0],
    family_name: name.split(" ")[1],
    iat: now,
    exp: now + 3600,
  }
  return `${b64url(header)}.${b64url(payload)}.${randomBytes(256).toString("base64url")}`
}

interface SignIn {
  provider: "github" | "google"
  user: { id: string; name: string; email: string; image: string }
  account: Account
}

function github(): SignIn {
  const id = String(583231)
  return {
    provider: "github",
    user: {
      id: randomUUID(),
      name: "Mona Octocat",
      email: "mona.octocat@example.com",
      image: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    },
    account: {
      provider: "github",
      type: "oauth",
      providerAccountId: id,
      access_token: `gho_${randomText(36)}`,
      token_type: "bearer",
      scope: "read:user,user:email",
    } as Account,
  }
}

function google(): SignIn {
  const sub = randomText(21, "0123456789")
  const name = "Jane Doe"
  const email = "jane.doe@gmail.com"
  const image = `https://lh3.googleusercontent.com/a/ACg8oc${randomText(60)}=s96-c`
  return {
    provider: "google",
    user: { id: randomUUID(), name, email, image },
    account: {
      provider: "google",
      type: "oidc",
      providerAccountId: sub,
      access_token: `ya29.${randomText(215, `${chars}-_`)}`,
      refresh_token: `1//0${randomText(99, `${chars}-_`)}`,
      expires_at: Math.floor(Date.now() / 1000) + 3599,
      token_type: "bearer",
      scope: "openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile",
      id_token: googleIdToken(sub, email, name, image),
    } as Account,
  }
}

/** The usual Auth.js recipe: copy the provider tokens into the token at sign-in. */
function copyTokens({ token, account }: { token: JWT; account?: Account | null }): JWT {
  if (!account) return token
  return {
    ...token,
    access_token: account.access_token,
    ...(account.refresh_token ? { refresh_token: account.refresh_token } : {}),
    ...(account.expires_at ? { expires_at: account.expires_at } : {}),
    ...(account.id_token ? { id_token: account.id_token } : {}),
  }
}

function config(tokens: "cookie" | "server"): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    providers: [GitHub({ clientId: "id", clientSecret: "secret" }), Google({ clientId: "id", clientSecret: "secret" })],
    store: MemoryStore(),
    session: { strategy: "jwt", tokens },
    logger: { warn: () => {}, error: (e) => void console.error(e), debug: () => {} },
    ...(tokens === "cookie" ? { callbacks: { jwt: copyTokens as never } } : {}),
  }
}

/** Issues the session of `signIn` as /callback/<id> does on https, and measures what the browser keeps and sends. */
async function measure(signIn: SignIn, tokens: "cookie" | "server") {
  const resolved = resolveConfig(config(tokens))
  expect(resolved.error).toBeUndefined()
  const req = { cookies: {}, secure: true, header: () => null, headers: new Headers() } as unknown as AuthRequest
  const cookies: Cookie[] = await resolved.sessionStrategy.issue(
    { user: signIn.user, isNewUser: false },
    { user: signIn.user, account: signIn.account },
    req,
    resolved,
  )
  const set = cookies.filter((c) => c.value !== "")
  // What the browser sends back for it: name=value of every chunk, joined as in a Cookie header.
  const bytes = set.map((c) => `${c.name}=${c.value}`).join("; ").length
  return { bytes, chunks: set.length, value: set.map((c) => c.value).join("") }
}

describe("session cookie sizes (docs/guide.md, Cookie budget)", () => {
  it("a GitHub and a Google sign-in, tokens in the cookie vs session.tokens: server", async () => {
    const rows: string[] = []
    const results: Record<string, { cookie: number; server: number; cookieChunks: number }> = {}
    for (const make of [github, google]) {
      const signIn = make()
      const inCookie = await measure(signIn, "cookie")
      const onServer = await measure(signIn, "server")
      results[signIn.provider] = { cookie: inCookie.bytes, server: onServer.bytes, cookieChunks: inCookie.chunks }
      rows.push(
        `${signIn.provider.padEnd(7)} tokens in cookie: ${String(inCookie.bytes).padStart(5)} bytes (${inCookie.chunks} cookie${inCookie.chunks > 1 ? "s" : ""})   tokens: "server": ${String(onServer.bytes).padStart(4)} bytes (${onServer.chunks} cookie)`,
      )
      // The server-side cookie is one cookie, and smaller.
      expect(onServer.chunks).toBe(1)
      expect(onServer.bytes).toBeLessThan(inCookie.bytes)
    }
    console.log(`Session cookie (__Secure-authjs.session-token), bytes sent back per request:\n${rows.join("\n")}`)
    // GitHub: one short token, so the two differ by little (the token against the sid and marker the reference needs).
    // Google: the ID token alone is ~1,000 characters; in the cookie the whole set costs more than 1.5 KB more.
    expect(results.google!.cookie - results.google!.server).toBeGreaterThan(1500)
    // With the tokens on the server both sign-ins make the same size of cookie, give or take the profile.
    expect(Math.abs(results.google!.server - results.github!.server)).toBeLessThan(120)
  })
})
