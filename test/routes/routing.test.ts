// Routing: unknown actions and wrong methods (400 UnknownAction, 405 with Allow).
import { describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import Credentials from "../../src/providers/credentials.js"
import { alice, get, postForm } from "../support/flow-kit.js"
import { setup } from "../support/routes-kit.js"

describe("routing", () => {
  it("an unknown action: 400 JSON UnknownAction", async () => {
    const { config } = setup()
    const res = await Auth(get("/auth/nope"), config)
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: string }).error).toBe("UnknownAction")
  })

  it("POST /csrf: 405 with Allow: GET", async () => {
    const { config } = setup()
    const res = await Auth(postForm("/auth/csrf", {}), config)
    expect(res.status).toBe(405)
    expect(res.headers.get("allow")).toBe("GET")
    expect(((await res.json()) as { error: string }).error).toBe("UnknownAction")
  })

  it("GET /callback/credentials: 405 with Allow: POST, authorize not called", async () => {
    const authorize = vi.fn(() => ({ ...alice }))
    const { config } = setup({ providers: [Credentials({ credentials: {}, authorize })] })
    const res = await Auth(get("/auth/callback/credentials?username=alice"), config)
    expect(res.status).toBe(405)
    expect(res.headers.get("allow")).toBe("POST")
    expect(authorize).not.toHaveBeenCalled()
  })
})
