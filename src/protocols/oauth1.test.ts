// Unit tests of the OAuth 1.0a legs' failures: each is an AuthError with the Auth.js type of its route, checked on canned responses.
import { describe, expect, it } from "vitest"
import { AuthError, OAuthCallbackError, OAuthSignInError } from "../errors.js"
import { requestTemporaryCredentials, requestTokenCredentials, signedGetJson } from "./oauth1.js"

const consumer = { consumerKey: "ck", consumerSecret: "cs" }
const url = new URL("https://api.example/oauth/step")
/** A fetch that answers every call with this body and status, and records the Authorization header it got. */
function answer(body: string, status = 200): typeof fetch & { authorization: string[] } {
  const authorization: string[] = []
  const fn = (async (_input: string | URL | Request, init?: RequestInit) => {
    authorization.push(new Headers(init?.headers).get("authorization") ?? "")
    return new Response(body, { status })
  }) as typeof fetch & { authorization: string[] }
  fn.authorization = authorization
  return fn
}

describe("OAuth 1.0a leg 1 (request token) fails as OAuthSignInError", () => {
  it("returns the temporary credentials of a confirmed answer, signed with the callback", async () => {
    const fetchFn = answer("oauth_token=rt&oauth_token_secret=rts&oauth_callback_confirmed=true")
    await expect(requestTemporaryCredentials(fetchFn, url, consumer, "https://app.example/cb")).resolves.toEqual({
      token: "rt",
      tokenSecret: "rts",
    })
    expect(fetchFn.authorization[0]).toMatch(/^OAuth .*oauth_callback="https%3A%2F%2Fapp.example%2Fcb"/)
  })
  it.each([
    ["a non-200 answer", answer("nope", 500), /request-token request answered 500/],
    ["an unconfirmed callback", answer("oauth_token=rt&oauth_token_secret=rts"), /did not confirm the callback/],
    ["no token secret", answer("oauth_token=rt&oauth_callback_confirmed=true"), /no oauth_token/],
  ])("%s", async (_name, fetchFn, message) => {
    const error = await requestTemporaryCredentials(fetchFn, url, consumer, "https://app.example/cb").catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(OAuthSignInError)
    expect(error).toBeInstanceOf(AuthError)
    expect((error as OAuthSignInError).type).toBe("OAuthSignInError")
    expect((error as Error).message).toMatch(message)
  })
})

describe("OAuth 1.0a leg 3 and the profile request fail as OAuthCallbackError", () => {
  const temporary = { ...consumer, token: "rt", tokenSecret: "rts" }
  it("returns the token credentials of a good answer", async () => {
    await expect(
      requestTokenCredentials(answer("oauth_token=at&oauth_token_secret=ats&user_id=7"), url, temporary, "v"),
    ).resolves.toEqual({ oauth_token: "at", oauth_token_secret: "ats", user_id: "7" })
  })
  it.each([
    [
      "access token: a non-200 answer",
      () => requestTokenCredentials(answer("denied", 401), url, temporary, "v"),
      /access-token request answered 401/,
    ],
    [
      "access token: no token secret",
      () => requestTokenCredentials(answer("oauth_token=at"), url, temporary, "v"),
      /no oauth_token/,
    ],
    [
      "profile: a non-200 answer",
      () => signedGetJson(answer("{}", 403), url, temporary),
      /profile request answered 403/,
    ],
    ["profile: not a JSON object", () => signedGetJson(answer("[1]"), url, temporary), /not a JSON object/],
  ])("%s", async (_name, call, message) => {
    const error = await call().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OAuthCallbackError)
    expect((error as OAuthCallbackError).type).toBe("OAuthCallbackError")
    expect((error as Error).message).toMatch(message)
  })
})
