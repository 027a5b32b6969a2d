// Wire compatibility of e-mail sign-in with @auth/core 0.41.3: a link an Auth.js app mailed (and the token row it
// stored) signs in through Gatehouse after the switch, on the same database.
import { describe, expect, it } from "vitest"
import { Auth as AuthJs } from "@auth/core"
import type { AuthConfig as AuthJsConfig } from "@auth/core"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { CookieJar, ORIGIN, SECRET, click, emailSetup, requestLink, sessionOf } from "./kit.js"
import { get, postForm } from "../support/flow-kit.js"

describe("e-mail links across the switch from @auth/core", () => {
  it("a link minted and stored by @auth/core signs in through Gatehouse; Gatehouse stores the same row shape", async () => {
    const adapter = MemoryAdapter()
    const mailed: string[] = []
    const authjs: AuthJsConfig = {
      secret: SECRET,
      trustHost: true,
      basePath: "/auth",
      adapter: adapter as unknown as AuthJsConfig["adapter"],
      logger: { error() {}, warn() {}, debug() {} },
      providers: [
        {
          id: "email",
          type: "email",
          name: "Email",
          sendVerificationRequest: ({ url }: { url: string }) => void mailed.push(url),
        } as never,
      ],
    }
    const jar = new CookieJar()
    const csrfRes = await AuthJs(get("/auth/csrf"), authjs)
    jar.store(csrfRes)
    const { csrfToken } = (await csrfRes.json()) as { csrfToken: string }
    const sent = await AuthJs(
      postForm(
        "/auth/signin/email",
        { csrfToken, email: "alice@example.com", callbackUrl: `${ORIGIN}/home` },
        { cookie: jar.header() },
      ),
      authjs,
    )
    expect(sent.status).toBe(302)
    expect(mailed).toHaveLength(1)
    const [authjsRow] = [...adapter.verificationTokens.values()]

    const setup = emailSetup({}, adapter)
    const browser = new CookieJar()
    const res = await click(setup.config, mailed[0]!, browser)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/home`)
    expect((await sessionOf(setup.config, browser))?.user?.email).toBe("alice@example.com")

    // And back: a link Gatehouse mailed signs in through @auth/core (a rollback keeps pending links working).
    await requestLink(setup.config, "bob@example.com", { callbackUrl: "/back" })
    const link = new URL(setup.sent[0]!.url)
    expect(link.pathname).toBe(new URL(mailed[0]!).pathname)
    expect([...link.searchParams.keys()]).toEqual([...new URL(mailed[0]!).searchParams.keys()])
    const ours = setup.adapter.calls.find((c) => c.method === "createVerificationToken")!.args[0] as { token: string }
    expect(ours.token).toMatch(/^[0-9a-f]{64}$/)
    expect(authjsRow!.token).toMatch(/^[0-9a-f]{64}$/)
    const back = await AuthJs(get(link.pathname + link.search), authjs)
    expect(back.status).toBe(302)
    expect(back.headers.get("location")).toBe(`${ORIGIN}/back`)
    expect(back.headers.get("set-cookie")).toContain("authjs.session-token=")
  })
})
