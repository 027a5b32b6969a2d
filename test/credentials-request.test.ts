// authorize(credentials, request): the Request is there for an authorize that declares it, built only then.
import { describe, expect, it } from "vitest"
import type { AuthConfig } from "../src/index.js"
import Credentials from "../src/providers/credentials.js"
import { makeConfig, signIn } from "./support/flow-kit.js"

function configWith(authorize: (...args: never[]) => unknown): AuthConfig {
  return makeConfig({
    providers: [Credentials({ credentials: { username: {}, password: {} }, authorize: authorize as never })],
  })
}

describe("the request argument of authorize", () => {
  it("a two-parameter authorize gets a POST Request with the client's headers and the credentials as JSON", async () => {
    const seen: { method?: string; agent?: string | null; body?: unknown; url?: string } = {}
    const config = configWith(async (c: Record<string, string>, request: Request) => {
      seen.method = request.method
      seen.agent = request.headers.get("content-type")
      seen.url = request.url
      seen.body = await request.json()
      return c.username === "alice" ? { id: "1", email: "a@example.com" } : null
    })
    const { res } = await signIn(config)
    expect(res.status).toBe(302)
    expect(seen).toEqual({
      method: "POST",
      agent: "application/x-www-form-urlencoded",
      url: "http://localhost:3000/auth/callback/credentials",
      body: expect.objectContaining({ username: "alice" }),
    })
  })

  it("a rest-parameter authorize gets the Request too", async () => {
    let request: unknown
    const config = configWith(async (...args: unknown[]) => {
      request = args[1]
      return { id: "1" }
    })
    await signIn(config)
    expect(request).toBeInstanceOf(Request)
  })

  it("a one-parameter authorize is called with the credentials (no Request is built for it)", async () => {
    const calls: unknown[][] = []
    const config = configWith(function authorize(this: unknown, c: unknown) {
      // biome-ignore lint/complexity/noArguments: the test records every argument authorize receives, however many
      calls.push([...arguments])
      return { id: "1", seen: c } as never
    })
    await signIn(config)
    expect(calls).toHaveLength(1)
    expect(calls[0]![0]).toMatchObject({ username: "alice", password: "password" })
    expect(calls[0]![1]).toBeUndefined()
  })
})
