// GET /providers: every provider with its sign-in and callback URLs, under the basePath.
import { describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import Credentials from "../../src/providers/credentials.js"
import { get } from "../support/flow-kit.js"
import { setup } from "../support/routes-kit.js"

describe("GET /providers", () => {
  it("lists every provider with its sign-in and callback URLs", async () => {
    const { config } = setup()
    config.providers.push(
      Credentials({
        id: "otp",
        name: "One-time code",
        credentials: { code: { label: "Code" } },
        authorize: () => null,
      }),
      { id: "github", name: "GitHub", type: "oauth", issuer: "https://github.com" },
    )
    const res = await Auth(get("/auth/providers"), config)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("application/json")
    expect(res.headers.get("cache-control")).toBeNull()
    expect(res.headers.getSetCookie()).toEqual([])
    expect(await res.json()).toEqual({
      credentials: {
        id: "credentials",
        name: "Credentials",
        type: "credentials",
        signinUrl: "http://localhost:3000/auth/signin/credentials",
        callbackUrl: "http://localhost:3000/auth/callback/credentials",
      },
      otp: {
        id: "otp",
        name: "One-time code",
        type: "credentials",
        signinUrl: "http://localhost:3000/auth/signin/otp",
        callbackUrl: "http://localhost:3000/auth/callback/otp",
      },
      github: {
        id: "github",
        name: "GitHub",
        type: "oauth",
        signinUrl: "http://localhost:3000/auth/signin/github",
        callbackUrl: "http://localhost:3000/auth/callback/github",
      },
    })
  })

  it("uses the basePath", async () => {
    const { config } = setup({ basePath: "/api/auth" })
    const res = await Auth(get("/api/auth/providers"), config)
    const body = (await res.json()) as Record<string, { signinUrl: string }>
    expect(body.credentials?.signinUrl).toBe("http://localhost:3000/api/auth/signin/credentials")
  })
})
