import { createHash, randomBytes } from "node:crypto"
import { afterAll, beforeAll, expect, it } from "vitest"
import { Browser, formatStep } from "./support/browser.js"
import { startOidcProvider, type OidcOp } from "./support/oidc-op.js"

let op: OidcOp
beforeAll(async () => { op = await startOidcProvider() })
afterAll(async () => { await op?.stop() })

it("drives the OP alone", async () => {
  let captured: Request | undefined
  const b = new Browser({ apps: { "http://localhost:3000": (req) => { captured = req; return new Response("ok") } }, user: { login: "olivia@op.example", password: "correct horse" } })
  const verifier = randomBytes(32).toString("base64url")
  const challenge = createHash("sha256").update(verifier).digest("base64url")
  const u = new URL(`${op.issuer}/auth`)
  const redirect_uri = "http://localhost:3000/auth/callback/op"
  Object.entries({ response_type: "code", client_id: "client-basic", redirect_uri, scope: "openid email profile", state: "st", nonce: "nn", code_challenge: challenge, code_challenge_method: "S256" }).forEach(([k, v]) => u.searchParams.set(k, v))
  const r = await b.follow(u.href, { initiator: "http://localhost:3000" })
  console.log(r.steps.map(formatStep).join("\n"))
  const cb = new URL(captured!.url)
  console.log(cb.href)
  const res = await fetch(`${op.issuer}/token`, { method: "POST", headers: { authorization: `Basic ${Buffer.from(`client-basic:${op.clients.basic.client_secret}`).toString("base64")}`, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "authorization_code", code: cb.searchParams.get("code")!, redirect_uri, code_verifier: verifier }) })
  const tok = await res.json()
  console.log(tok, JSON.parse(Buffer.from(tok.id_token.split(".")[1], "base64url").toString()))
  console.log(op.tokenRequests)
  expect(res.status).toBe(200)
})
