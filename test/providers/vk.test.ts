// The built-in VK provider end to end through Auth(), against a local VK (oauth.vk.com + api.vk.com on one
// 127.0.0.1 server) that behaves as the real one does:
// - every URL must carry the API version `v=` (else VK's "v is required" errors); the version seen is recorded;
// - the authorize page refuses PKCE parameters ("Code challenge method is unsupported");
// - the token answer has no token_type and carries the e-mail (scope email) and user_id;
// - users.get answers `{ response: [user] }`, errors as `{ error: { error_code, error_msg, request_params } }` with 200.
// Mapping checked: name = first + last, email from the token response, image = photo_100 (or the largest photo
// requested), providerAccountId = the numeric id as a string.
import { randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import type { AuthConfig } from "../../src/index.js"
import VK, { VK_DEFAULT_API_VERSION, type VkOptions, type VkProfile } from "../../src/providers/vk.js"
import { ORIGIN } from "../support/flow-kit.js"
import {
  ERROR_PAGE,
  SIGNIN_ERROR,
  type LocalServer,
  callback,
  freshValue,
  expectRejected,
  expectSignedIn,
  logged,
  sendJson,
  sendRedirect,
  sessionOf,
  setup,
  signInThrough,
  startLocalServer,
  startSignIn,
  useFakeProvider,
  visitProvider,
} from "../support/provider-kit.js"

const CALLBACK = `${ORIGIN}/auth/callback/vk`

interface FakeVk extends LocalServer {
  clientId: string
  clientSecret: string
  user: VkProfile
  /** The e-mail the token answer carries (undefined: the user did not share it). */
  email: string | undefined
  decision: "approve" | "deny"
  /** users.get answers this VK error instead of the user. */
  apiError: { error_code: number; error_msg: string } | undefined
  /** `v` of every request, by path. */
  versions(path: string): (string | null)[]
  issued: string[]
  reset(): void
}

const PAVEL: VkProfile = {
  id: 1,
  first_name: "Pavel",
  last_name: "Durov",
  is_closed: false,
  can_access_closed: true,
  photo_100: "https://sun1.userapi.com/impg/pavel_100.jpg",
  photo_max_orig: "https://sun1.userapi.com/impg/pavel_max.jpg",
  sex: 2,
  city: { id: 2, title: "Saint Petersburg" },
}

async function startFakeVk(): Promise<FakeVk> {
  const codes = new Map<string, { redirectUri: string; email: string | undefined }>()
  const tokens = new Set<string>()
  const vk = {} as FakeVk
  const fresh = (prefix: string) => freshValue(vk.issued, prefix)
  const server = await startLocalServer(async (req, res, r) => {
    const v = r.query.get("v")
    if (r.path === "/authorize" && r.method === "GET") {
      const q = r.query
      const redirectUri = q.get("redirect_uri") ?? ""
      if (q.get("client_id") !== vk.clientId || redirectUri !== CALLBACK)
        return sendJson(res, r, 400, { error: "invalid_request", error_description: "redirect_uri is incorrect" })
      const back = new URL(redirectUri)
      if (q.has("state")) back.searchParams.set("state", q.get("state")!)
      if (!v) {
        back.searchParams.set("error", "invalid_request")
        back.searchParams.set("error_description", "v is required")
      } else if (q.has("code_challenge") || q.has("code_challenge_method")) {
        back.searchParams.set("error", "invalid_request")
        back.searchParams.set("error_description", "Code challenge method is unsupported")
      } else if (vk.decision === "deny") {
        back.searchParams.set("error", "access_denied")
        back.searchParams.set("error_reason", "user_denied")
        back.searchParams.set("error_description", "User denied your request")
      } else {
        const code = fresh("code")
        codes.set(code, { redirectUri, email: q.get("scope")?.split(/[ ,]/).includes("email") ? vk.email : undefined })
        back.searchParams.set("code", code)
      }
      return sendRedirect(res, r, back.href)
    }
    if (r.path === "/access_token") {
      // VK takes the parameters from the query or a form body.
      const params = new URLSearchParams(r.query)
      if (r.method === "POST") for (const [k, val] of new URLSearchParams(r.body)) params.set(k, val)
      if (!v) return sendJson(res, r, 400, { error: "invalid_request", error_description: "v is required" })
      if (params.get("client_id") !== vk.clientId || params.get("client_secret") !== vk.clientSecret)
        return sendJson(res, r, 401, { error: "invalid_client", error_description: "client_secret is incorrect" })
      const grant = codes.get(params.get("code") ?? "")
      codes.delete(params.get("code") ?? "")
      if (!grant || grant.redirectUri !== params.get("redirect_uri"))
        return sendJson(res, r, 401, { error: "invalid_grant", error_description: "Code is invalid or expired." })
      const accessToken = fresh("vk1.a.")
      tokens.add(accessToken)
      // No token_type (RFC 6749 §5.1 requires one): the provider's token.conform adds it.
      return sendJson(res, r, 200, {
        access_token: accessToken,
        expires_in: 86400,
        user_id: vk.user.id,
        ...(grant.email ? { email: grant.email } : {}),
      })
    }
    if (r.path === "/method/users.get" && r.method === "GET") {
      const requestParams = [...r.query].map(([key, value]) => ({ key, value }))
      if (!v)
        return sendJson(res, r, 200, {
          error: { error_code: 8, error_msg: "Invalid request: v is required", request_params: requestParams },
        })
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? r.query.get("access_token")
      if (!token || !tokens.has(token))
        return sendJson(res, r, 200, {
          error: {
            error_code: 5,
            error_msg: "User authorization failed: invalid access_token (4).",
            request_params: requestParams,
          },
        })
      if (vk.apiError) return sendJson(res, r, 200, { error: { ...vk.apiError, request_params: requestParams } })
      const fields = new Set((r.query.get("fields") ?? "").split(","))
      const u = vk.user
      const out: Record<string, unknown> = {
        id: u.id,
        first_name: u.first_name,
        last_name: u.last_name,
        is_closed: u.is_closed,
        can_access_closed: u.can_access_closed,
      }
      for (const f of fields) if (f in u) out[f] = u[f as keyof VkProfile]
      return sendJson(res, r, 200, { response: [out] })
    }
  })
  Object.assign(vk, server, {
    clientId: "51234567",
    clientSecret: `vk-secret-${randomBytes(6).toString("hex")}`,
    issued: [],
    versions: (path: string) => server.to(path).map((r) => r.query.get("v")),
    reset() {
      vk.user = structuredClone(PAVEL)
      vk.email = "Pavel@VK.example"
      vk.decision = "approve"
      vk.apiError = undefined
      vk.requests.length = 0
    },
  })
  vk.reset()
  return vk
}

let vk: FakeVk
const guard = useFakeProvider(startFakeVk, (server) => {
  vk = server
})

function vkProvider(extra: VkOptions = {}): AuthConfig["providers"][number] {
  return VK({
    clientId: vk.clientId,
    clientSecret: vk.clientSecret,
    authorizationUrl: `${vk.url}/authorize?response_type=code&scope=email`,
    accessTokenUrl: `${vk.url}/access_token`,
    profileUrl: `${vk.url}/method/users.get?fields=photo_100`,
    ...extra,
  }) as AuthConfig["providers"][number]
}

async function fullSignIn(provider: AuthConfig["providers"][number]) {
  const s = setup([provider])
  const started = await startSignIn(s.config, "vk")
  expect(started.res.status).toBe(302)
  const back = await visitProvider(started.location!)
  const res = await callback(s.config, back, started.jar)
  return { s, started, back, res }
}

describe("VK", () => {
  it("signs in: v=5.126 on every URL, state without PKCE, client_secret_post, a token answer without token_type, users.get", async () => {
    const { s, started, res } = await fullSignIn(vkProvider())
    const auth = started.location!
    expect(Object.fromEntries(auth.searchParams)).toMatchObject({
      response_type: "code",
      scope: "email",
      v: "5.126",
      client_id: vk.clientId,
      redirect_uri: CALLBACK,
    })
    expect(auth.searchParams.get("state")).toBeTruthy()
    expect(auth.searchParams.has("code_challenge")).toBe(false)
    expectSignedIn(res, s.log)

    expect(vk.versions("/authorize")).toEqual(["5.126"])
    expect(vk.versions("/access_token")).toEqual(["5.126"])
    expect(vk.versions("/method/users.get")).toEqual(["5.126"])
    const [token] = vk.to("/access_token")
    expect(token?.method).toBe("POST")
    expect(token?.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/)
    const body = new URLSearchParams(token?.body)
    expect(Object.fromEntries(body)).toMatchObject({
      grant_type: "authorization_code",
      client_id: vk.clientId,
      client_secret: vk.clientSecret,
      redirect_uri: CALLBACK,
    })
    expect(body.has("code_verifier")).toBe(false)
    expect(token?.headers.authorization).toBeUndefined()
    const [users] = vk.to("/method/users.get")
    expect(users?.headers.authorization).toMatch(/^Bearer vk1\.a\./)
    expect(users?.query.get("fields")).toBe("photo_100")

    expect((await sessionOf(s.config, started.jar))?.user).toEqual({
      name: "Pavel Durov",
      // From the token response (users.get never returns it), lowercased.
      email: "pavel@vk.example",
      image: "https://sun1.userapi.com/impg/pavel_100.jpg",
    })
    const call = s.signInCall()
    expect(call.account).toMatchObject({
      provider: "vk",
      type: "oauth",
      providerAccountId: "1",
      token_type: "bearer",
      user_id: 1,
      email: "Pavel@VK.example",
    })
    expect(call.account?.access_token).toMatch(/^vk1\.a\./)
    expect(call.profile).toMatchObject({
      id: 1,
      first_name: "Pavel",
      last_name: "Durov",
      photo_100: PAVEL.photo_100,
      email: "Pavel@VK.example",
    })
  })

  it("the defaults: oauth.vk.com / api.vk.com URLs with v=5.126 and scope=email, checks [state], client_secret_post", () => {
    const p = VK()
    expect(VK_DEFAULT_API_VERSION).toBe("5.126")
    expect(p.authorization).toBe("https://oauth.vk.com/authorize?response_type=code&scope=email&v=5.126")
    expect((p.token as { url: string }).url).toBe("https://oauth.vk.com/access_token?v=5.126")
    expect((p.userinfo as { url: string }).url).toBe("https://api.vk.com/method/users.get?fields=photo_100&v=5.126")
    expect(p.checks).toEqual(["state"])
    expect(p.client).toEqual({ token_endpoint_auth_method: "client_secret_post" })
    // requestTokenUrl (the v4 name, same endpoint) is honoured when accessTokenUrl is not given.
    expect((VK({ requestTokenUrl: "https://oauth.vk.com/access_token?v=5.131" }).token as { url: string }).url).toBe(
      "https://oauth.vk.com/access_token?v=5.131",
    )
  })

  it("apiVersion sets v= on every URL", async () => {
    const { s, res } = await fullSignIn(vkProvider({ apiVersion: "5.199" }))
    expectSignedIn(res, s.log)
    expect(vk.versions("/authorize")).toEqual(["5.199"])
    expect(vk.versions("/access_token")).toEqual(["5.199"])
    expect(vk.versions("/method/users.get")).toEqual(["5.199"])
  })

  it("a v= already inside a URL option wins for that URL; the largest requested photo becomes the image", async () => {
    const { s, started, res } = await fullSignIn(
      vkProvider({ profileUrl: `${vk.url}/method/users.get?fields=photo_100,photo_max_orig&v=5.131` }),
    )
    expectSignedIn(res, s.log)
    expect(vk.versions("/authorize")).toEqual(["5.126"])
    expect(vk.versions("/access_token")).toEqual(["5.126"])
    expect(vk.versions("/method/users.get")).toEqual(["5.131"])
    expect(vk.to("/method/users.get")[0]?.query.getAll("v")).toEqual(["5.131"])
    expect((await sessionOf(s.config, started.jar))?.user?.image).toBe("https://sun1.userapi.com/impg/pavel_max.jpg")
  })

  it("without a shared e-mail (no email in the token answer) the user signs in with email null", async () => {
    vk.email = undefined
    const { s, started, res } = await fullSignIn(vkProvider())
    expectSignedIn(res, s.log)
    expect(s.signInCall().user).toMatchObject({ name: "Pavel Durov" })
    expect(s.signInCall().user).not.toHaveProperty("email")
    const user = (await sessionOf(s.config, started.jar))?.user
    expect(user?.email ?? null).toBeNull()
    expect(user?.name).toBe("Pavel Durov")
  })

  it("a users.get error ({error:{error_code:...}} with HTTP 200) -> OAuthCallbackError naming the error code", async () => {
    vk.apiError = { error_code: 30, error_msg: "This profile is private" }
    const { s, res } = await fullSignIn(vkProvider())
    expectRejected(res, s.log, SIGNIN_ERROR("OAuthCallbackError"), "OAuthCallbackError")
    expect(logged(s.log)).toContain("error 30")
    for (const secret of [...vk.issued, vk.clientSecret]) expect(logged(s.log)).not.toContain(secret)
  })

  it("a token error (401 invalid_grant) -> OAuthCallbackError, users.get never called", async () => {
    const s = setup([vkProvider()])
    const { res } = await signInThrough(s.config, "vk", (back) => back.searchParams.set("code", "code-expired"))
    expectRejected(res, s.log, SIGNIN_ERROR("OAuthCallbackError"), "OAuthCallbackError")
    expect(vk.to("/access_token").map((r) => r.status)).toEqual([401])
    expect(vk.to("/method/users.get")).toHaveLength(0)
    expect(logged(s.log)).toContain("invalid_grant")
  })

  it("a denied authorization (error=access_denied) ends at /auth/error?error=AccessDenied without a token request", async () => {
    vk.decision = "deny"
    const { s, back, res } = await fullSignIn(vkProvider())
    expect(back.searchParams.get("error")).toBe("access_denied")
    expectRejected(res, s.log, ERROR_PAGE("AccessDenied&code=access_denied"), "AccessDenied")
    expect(vk.to("/access_token")).toHaveLength(0)
  })

  it("PKCE forced on by the user is what VK rejects: the upstream error is an OAuthCallbackError (why the default is state only)", async () => {
    const { s, back, res } = await fullSignIn(vkProvider({ checks: ["pkce", "state"] }))
    expect(back.searchParams.get("error_description")).toBe("Code challenge method is unsupported")
    expectRejected(res, s.log, SIGNIN_ERROR("OAuthCallbackError"), "OAuthCallbackError")
  })

  it("the generic `userinfo: { url }` override is honoured by VK's users.get hook too (like GitHub's)", async () => {
    const s = setup([
      VK({
        clientId: vk.clientId,
        clientSecret: vk.clientSecret,
        authorizationUrl: `${vk.url}/authorize?response_type=code&scope=email`,
        accessTokenUrl: `${vk.url}/access_token`,
        userinfo: { url: `${vk.url}/method/users.get?fields=photo_100&v=5.126` },
      }) as AuthConfig["providers"][number],
    ])
    const { res } = await signInThrough(s.config, "vk")
    const blocked = [...guard.blocked]
    guard.blocked.length = 0
    expect(blocked, "users.get went to the real api.vk.com instead of the configured userinfo.url").toEqual([])
    expectSignedIn(res, s.log)
    expect(vk.to("/method/users.get")).toHaveLength(1)
  })
})
