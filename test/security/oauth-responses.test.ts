// Security group A (docs/security.md §1.A), what the authorization server answers: an injected code (OA-08), error
// responses on the callback (OA-10) and token endpoint faults (OA-18), against the mock OP
// (test/support/mock-op.ts). Documented choices: an upstream error=access_denied is AccessDenied
// (302 /auth/error?error=AccessDenied), any other upstream error OAuthCallbackError (302
// /auth/signin?error=OAuthCallbackError).
import { describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import { get } from "../support/flow-kit.js"
import type { TokenFault, MockOp } from "../support/mock-op.js"
import {
  CHECK_COOKIES,
  authorizedCallback,
  beginSignIn,
  callbackGet,
  callbackUrl,
  deltaCounts,
  expectReject,
  expectSignedIn,
  fullFlow,
  provider,
  setup,
  expectNoUnhandled,
  useMockOps,
} from "../support/oauth-flow.js"

let opA: MockOp
const harness = useMockOps(["client-a"], (ops) => {
  opA = ops[0] as MockOp
})

describe("A. OAuth 2 / OIDC callback — attacks (docs/security.md §1.A)", () => {
  it("OA-08 the attacker's own valid code injected into the victim's callback: AS answers invalid_grant -> REJECT(OAuthCallbackError), nothing linked", async () => {
    const { config, log } = setup([provider(opA)])
    // The attacker ran its own flow and stopped before its callback: its code is valid and unused.
    const attacker = await beginSignIn(config)
    opA.subject = "attacker-sub"
    const attackerAnswer = await opA.authorize(attacker.authUrl)
    const attackerCode = attackerAnswer.params.get("code") as string
    // The victim's flow: the attacker swaps in its code, keeping the victim's state and iss.
    opA.subject = "victim-sub"
    const victim = await beginSignIn(config)
    const victimAnswer = await opA.authorize(victim.authUrl)
    const params = new URLSearchParams(victimAnswer.params)
    params.set("code", attackerCode)
    const before = { ...opA.counts }
    const res = await callbackGet(config, callbackUrl("mock", params), victim.jar.header())
    await expectReject(res, { type: "OAuthCallbackError", log, op: opA, before, carried: CHECK_COOKIES })
    const d = deltaCounts(before, opA.counts)
    expect(d).toMatchObject({ token: 1, userinfo: 0, jwks: 0 })
    expect(opA.tokenRequests.at(-1)).toMatchObject({ status: 400, error: "invalid_grant" })
  })

  it("OA-10 error=access_denied with <script> description and a valid state: REJECT(AccessDenied), description never rendered, I3 I4", async () => {
    const { config, log } = setup([provider(opA)])
    const { jar, authUrl } = await beginSignIn(config)
    const state = authUrl.searchParams.get("state") as string
    const script = "<script>alert(document.cookie)</script>"
    const before = { ...opA.counts }
    const res = await callbackGet(
      config,
      callbackUrl("mock", [
        ["error", "access_denied"],
        ["error_description", script],
        ["state", state],
        ["iss", opA.issuer],
      ]),
      jar.header(),
    )
    await expectReject(res, {
      type: "AccessDenied",
      log,
      op: opA,
      before,
      preCheck: true,
      carried: CHECK_COOKIES,
      secrets: [script, "alert(document"],
    })
    // The error page the user lands on does not render it either.
    const page = await Auth(
      get(
        new URL(res.headers.get("location") as string).pathname + new URL(res.headers.get("location") as string).search,
      ),
      config,
    )
    expect(await page.text()).not.toContain("alert(")
  })

  it("OA-10 error=access_denied without state (and without cookies): REJECT(AccessDenied), I3", async () => {
    const { config, log } = setup([provider(opA)])
    const before = { ...opA.counts }
    const res = await callbackGet(
      config,
      callbackUrl("mock", [
        ["error", "access_denied"],
        ["error_description", "<img src=x onerror=alert(1)>"],
      ]),
      "",
    )
    await expectReject(res, { type: "AccessDenied", log, op: opA, before, preCheck: true, secrets: ["onerror=alert"] })
  })

  it("OA-10 other upstream errors (server_error, invalid_scope, an unknown code): REJECT(OAuthCallbackError), I3 I4", async () => {
    for (const error of ["server_error", "invalid_scope", "<b>weird</b>"]) {
      opA.reset()
      const { config, log } = setup([provider(opA)])
      const { jar, authUrl } = await beginSignIn(config)
      const before = { ...opA.counts }
      const res = await callbackGet(
        config,
        callbackUrl("mock", [
          ["error", error],
          ["error_description", "<script>x()</script>"],
          ["state", authUrl.searchParams.get("state") as string],
        ]),
        jar.header(),
      )
      await expectReject(res, {
        type: "OAuthCallbackError",
        log,
        op: opA,
        before,
        preCheck: true,
        carried: CHECK_COOKIES,
        secrets: ["<script>x()"],
      })
    }
  })

  describe("OA-18 token endpoint faults", () => {
    const rejects: { fault: TokenFault; why: string }[] = [
      { fault: "error-in-200", why: "200 with {error}" },
      { fault: "non-json", why: "200 text/html" },
      { fault: "status-500", why: "500" },
      { fault: "no-access-token", why: "no access_token" },
      { fault: "no-id-token", why: "no id_token for scope openid" },
      { fault: "redirect", why: "302 (not followed)" },
      { fault: "huge-body", why: "50 MB chunked body (size capped)" },
      { fault: "huge-body-declared", why: "50 MB with Content-Length (size capped)" },
    ]
    for (const c of rejects) {
      it(`OA-18 ${c.fault}: ${c.why} -> REJECT(OAuthCallbackError), no userinfo/JWKS call`, async () => {
        opA.tokenFault = c.fault
        const { config, log } = setup([provider(opA)])
        const { res, before } = await authorizedCallback(config, opA)
        await expectReject(res, { type: "OAuthCallbackError", log, op: opA, before, carried: CHECK_COOKIES })
        expect(deltaCounts(before, opA.counts)).toMatchObject({
          token: 1,
          userinfo: 0,
          jwks: 0,
          tokenRedirectTarget: 0,
        })
        // The size cap (1 MiB) stops the read: the RP never takes the 50 MB in.
        if (c.fault.startsWith("huge-body"))
          expect(opA.hugeBytesWritten, "the RP stopped reading long before 50 MB").toBeLessThan((50 * 1024 * 1024) / 4)
      })
    }

    it("OA-18 hanging token endpoint with provider timeout 300 ms: REJECT(OAuthCallbackError) by the timeout, the hanging request abandoned", async () => {
      opA.tokenFault = "hang"
      const { config, log } = setup([provider(opA, { timeout: 300 })])
      const started = await beginSignIn(config)
      const answer = await opA.authorize(started.authUrl)
      const before = { ...opA.counts }
      const res = await callbackGet(config, answer.url, started.jar.header())
      await expectReject(res, { type: "OAuthCallbackError", log, op: opA, before, carried: CHECK_COOKIES })
      // The answer came from the configured timeout (not another failure), and the RP closed the request it gave up on.
      expect(log.text()).toContain("did not answer within 300 ms")
      await expect.poll(() => opA.abandonedHangs, { timeout: 5000 }).toBe(1)
    })

    it('OA-18 token-type-case-insensitivity: token_type "BEARER" is accepted', async () => {
      opA.tokenFault = "token-type-uppercase"
      const { config } = setup([provider(opA)])
      expectSignedIn((await fullFlow(config, opA)).res)
    })
  })
})

describe("I6", () => {
  it("I6 no unhandled rejection during the OAuth security tests", async () => {
    await expectNoUnhandled(harness)
  })
})
