// The client's URL rules (where a sign-in or sign-out may send the page, which basePath is accepted) and signIn /
// signOut / configure applying them, with fetch and window stubbed (the real-browser attacks are in test/e2e/client).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { configure, signIn, signOut } from "./index.js"
import { clientConfig, navigate } from "./config.js"
import { basePathProblem, chooseDestination } from "./url-rules.js"

const PAGE = "https://app.example/account?tab=1"

describe("chooseDestination", () => {
  it.each([
    [
      "the server's URL, even on another origin (an OAuth provider's page)",
      "https://idp.example/authorize?x=1",
      "/anything",
      "https://idp.example/authorize?x=1",
    ],
    [
      "the server's relative URL, read against the page",
      "/auth/signin?error=X",
      undefined,
      "https://app.example/auth/signin?error=X",
    ],
    ["no server URL: a same-origin path target", undefined, "/dashboard#top", "https://app.example/dashboard#top"],
    ["no server URL: a same-origin absolute target", undefined, "https://app.example/x", "https://app.example/x"],
    ["no server URL: another origin", undefined, "https://evil.example/", undefined],
    ["no server URL: protocol-relative", undefined, "//evil.example/x", undefined],
    ["no server URL: backslash protocol-relative", undefined, "/\\evil.example/x", undefined],
    ["no server URL: tab inside //", undefined, "/\t/evil.example/x", undefined],
    ["no server URL: javascript:", undefined, "javascript:alert(document.cookie)//#", undefined],
    ["no server URL: javascript: with spaces and case", undefined, " \tJaVa\nScRiPt:alert(1)", undefined],
    ["no server URL: data:", undefined, "data:text/html,<script>alert(1)</script>", undefined],
    ["no server URL: http on the https page's host (another origin)", undefined, "http://app.example/x", undefined],
    [
      "a javascript: URL from the server is not taken; the same-origin target is",
      "javascript:alert(1)",
      "/home",
      "https://app.example/home",
    ],
    [
      "a javascript: URL from the server and a hostile target: nowhere",
      "javascript:alert(1)",
      "javascript:alert(2)",
      undefined,
    ],
    ["an unparsable server URL: the target", "http://[::1", "/home", "https://app.example/home"],
  ])("%s", (_name, returned, target, expected) => {
    expect(chooseDestination(returned, target, PAGE)).toBe(expected)
  })

  it("a page that is not http(s) (file:, about:blank) accepts no fallback target", () => {
    expect(chooseDestination(undefined, "/x", "about:blank")).toBeUndefined()
    expect(chooseDestination(undefined, "file:///etc/passwd", "file:///index.html")).toBeUndefined()
  })
})

describe("basePathProblem", () => {
  it.each(["/api/auth", "/auth", "/", "/a/b/c", "/auth/", "/%2F/x", "/ auth"])("accepts %j", (basePath) => {
    expect(basePathProblem(basePath)).toBeUndefined()
  })
  it.each([
    "https://evil.example/auth",
    "HTTP://evil.example/auth",
    "//evil.example/auth",
    "///evil.example",
    "/\\evil.example/auth",
    "\\\\evil.example/auth",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r/evil.example",
    "/\u0000/evil.example",
    "api/auth",
    "",
    "javascript:alert(1)",
    "/auth?x=1",
    "/auth#x",
  ])("refuses %j", (basePath) => {
    expect(basePathProblem(basePath)).toEqual(expect.any(String))
  })
  it("refuses what is not a string", () => {
    expect(basePathProblem(undefined)).toBe("it is not a string")
    expect(basePathProblem({ toString: () => "/auth" })).toBe("it is not a string")
  })
})

describe("signIn, signOut, configure and navigate in a stubbed page", () => {
  let location: { href: string; reload: () => void }
  let reloads: number
  let callbackAnswer: { status: number; body: unknown }
  let errors: unknown[][]

  beforeEach(() => {
    reloads = 0
    location = { href: PAGE, reload: () => void (reloads += 1) }
    callbackAnswer = { status: 200, body: { url: "https://app.example/after" } }
    errors = []
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })
    vi.stubGlobal("fetch", async (input: string) => {
      const path = new URL(String(input), "https://app.example").pathname
      if (path.endsWith("/providers"))
        return json(200, {
          credentials: { id: "credentials", name: "Credentials", type: "credentials", signinUrl: "", callbackUrl: "" },
        })
      if (path.endsWith("/csrf")) return json(200, { csrfToken: "t" })
      return json(callbackAnswer.status, callbackAnswer.body)
    })
    vi.stubGlobal("window", { location })
    vi.stubGlobal(
      "BroadcastChannel",
      class {
        postMessage() {}
        addEventListener() {}
      },
    )
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void errors.push(args))
    configure({ basePath: "/api/auth" })
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.restoreAllMocks()
  })

  it("CL-01: a javascript: url from the server is never assigned to location (signIn and signOut), and redirect: false answers url null", async () => {
    callbackAnswer = { status: 200, body: { url: "javascript:alert(document.cookie)" } }
    await signIn("credentials", { username: "a", password: "b", redirectTo: "javascript:alert(1)" })
    await signOut({ redirectTo: "javascript:alert(2)" })
    expect(location.href).toBe(PAGE)
    expect(errors.length).toBe(2)
    expect(await signIn("credentials", { username: "a", password: "b", redirect: false })).toEqual({
      error: "Configuration",
      code: undefined,
      status: 200,
      ok: false,
      url: null,
    })
  })

  it("CL-01: no url from the server (413) and an off-site redirectTo: no navigation, an error logged", async () => {
    callbackAnswer = { status: 413, body: { error: "InvalidRequest" } }
    await signIn("credentials", { username: "a", password: "b", redirectTo: "https://evil.example/phish" })
    await signOut({ redirectTo: "//evil.example/phish" })
    expect(location.href).toBe(PAGE)
    expect(String(errors[0]?.[1])).toMatch(
      /answered 413 without an http\(s\) URL.*not a same-origin http\(s\) URL, so the page stays/,
    )
    expect(await signOut({ redirectTo: "https://evil.example/", redirect: false })).toEqual({ url: null })
  })

  it("no url from the server and a same-origin redirectTo: it goes there (the parsed URL)", async () => {
    callbackAnswer = { status: 500, body: {} }
    await signIn("credentials", { username: "a", password: "b", redirectTo: "/dashboard" })
    expect(location.href).toBe("https://app.example/dashboard")
    expect(await signOut({ redirectTo: "/bye", redirect: false })).toEqual({ url: "https://app.example/bye" })
  })

  it("navigate refuses a URL that is not http(s), and reloads only for a hash on the same page", () => {
    navigate("javascript:alert(1)")
    navigate(" data:text/html,x")
    expect(location.href).toBe(PAGE)
    expect(errors.length).toBe(2)
    navigate("https://app.example/account?tab=1#two")
    expect(reloads).toBe(1)
    navigate("/elsewhere#section")
    expect(location.href).toBe("https://app.example/elsewhere#section")
    expect(reloads).toBe(1)
  })

  it("CL-02: configure refuses a basePath on another origin and keeps the one it had", () => {
    configure({ basePath: "/auth" })
    for (const basePath of [
      "https://evil.example/auth",
      "//evil.example/auth",
      "/\\evil.example/auth",
      "/\t/evil.example/auth",
      " //evil.example",
    ]) {
      expect(() => configure({ basePath })).toThrow(
        /basePath must be a path on this origin starting with a single "\/"/,
      )
    }
    expect(clientConfig().basePath).toBe("/auth")
    expect(configure({ basePath: " /api/auth// " }).basePath).toBe("/api/auth")
    expect(configure({ basePath: "/" }).basePath).toBe("")
  })
})
