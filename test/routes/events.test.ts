// Events: signIn and session payloads, and a throwing event that is logged without changing the response.
import { describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import { ORIGIN, alice, fetchCsrf, get, postForm, signIn } from "../support/flow-kit.js"
import {
  SESSION,
  setup,
  loggedTypes,
  loggedOf,
  sessionToken,
  claims,
  expectCleared,
  expectSessionCookie,
} from "../support/routes-kit.js"

describe("events", () => {
  it("signIn gets {user, account}", async () => {
    const signInEvent = vi.fn()
    const { config } = setup({ events: { signIn: signInEvent } })
    await signIn(config)
    expect(signInEvent).toHaveBeenCalledTimes(1)
    expect(signInEvent).toHaveBeenCalledWith({
      user: { ...alice },
      account: { provider: "credentials", type: "credentials", providerAccountId: "user-1" },
    })
  })

  it("session gets {session, token} after each read", async () => {
    const sessionEvent = vi.fn()
    const { config } = setup({ events: { session: sessionEvent } })
    const { jar } = await signIn(config)
    const stored = await claims(sessionToken(jar))
    const res = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    const body = await res.json()
    expect(sessionEvent).toHaveBeenCalledTimes(1)
    expect(sessionEvent).toHaveBeenCalledWith({ session: body, token: stored })
  })

  it("no session event when there is no session", async () => {
    const sessionEvent = vi.fn()
    const { config } = setup({ events: { session: sessionEvent } })
    await Auth(get("/auth/session"), config)
    expect(sessionEvent).not.toHaveBeenCalled()
  })

  it("a throwing event is logged as EventError and does not change the response", async () => {
    const boom = new Error("audit log offline")
    const { config, logger } = setup({
      events: {
        signIn: () => {
          throw boom
        },
        session: async () => {
          throw boom
        },
        signOut: () => {
          throw boom
        },
      },
    })
    const { res, jar } = await signIn(config)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(ORIGIN)
    expectSessionCookie(res)
    const logged = loggedOf(logger, "EventError")
    expect(logged.cause).toBe(boom)
    expect(logged.message).toContain("signIn")

    const read = await Auth(get("/auth/session", { cookie: jar.header() }), config)
    expect(read.status).toBe(200)
    expect(((await read.json()) as { user: { name: string } }).user.name).toBe("Alice")

    const csrfToken = await fetchCsrf(config, jar)
    const out = await Auth(postForm("/auth/signout", { csrfToken }, { cookie: jar.header() }), config)
    expect(out.headers.get("location")).toBe(ORIGIN)
    expectCleared(out, SESSION)
    expect(loggedTypes(logger)).toEqual(["EventError", "EventError", "EventError"])
  })
})
