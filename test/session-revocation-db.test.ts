// gatehouse/sessions on database sessions (session.revocation): the memory adapter and the postgres adapter on PGlite
// (and on DATABASE_URL when set). Credentials sign-ins through Auth(); listing, ending rows, sign-out and forged ids
// (docs/security.md SR-14..SR-17).
import { afterAll, beforeEach, describe, expect, it } from "vitest"
import { Auth } from "../src/index.js"
import type { Adapter, AuthConfig } from "../src/index.js"
import Credentials from "../src/providers/credentials.js"
import { listSessions, revokeSession, revokeUserSessions } from "../src/sessions.js"
import type { SharedStore } from "../src/stores/index.js"
import { MemoryStore } from "../src/stores/memory.js"
import { type Backend, allBackends, dbConfig } from "./support/db-harness.js"
import { CookieJar, alice, bob, fetchCsrf, get, postForm, signIn } from "./support/flow-kit.js"

const COOKIE = "authjs.session-token"
const backends = await allBackends()
afterAll(async () => {
  for (const b of backends) await b.close()
})

function provider() {
  const users = { alice, bob } as Record<string, typeof alice>
  return Credentials({
    credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
    authorize: async (c) => {
      const user = typeof c.username === "string" ? users[c.username] : undefined
      return user && c.password === "password" ? { ...user } : null
    },
  })
}

const as = (username: string) => ({ username, password: "password" })

async function sessionOf(config: AuthConfig, jar: CookieJar | string): Promise<Record<string, unknown> | null> {
  const cookie = typeof jar === "string" ? jar : jar.header()
  return (await (await Auth(get("/auth/session", { cookie }), config)).json()) as Record<string, unknown> | null
}

describe.each(backends)("database sessions on $name", (backend: Backend) => {
  let adapter: Adapter
  let store: SharedStore
  let writes: [string, string][]
  let config: AuthConfig
  let userId: (name: string) => Promise<string>
  beforeEach(async () => {
    adapter = await backend.fresh()
    const memory = MemoryStore()
    writes = []
    store = {
      claim: (k, v, t) => (writes.push([k, v]), memory.claim(k, v, t)),
      get: (k) => memory.get(k),
      set: (k, v, t) => (writes.push([k, v]), memory.set(k, v, t)),
      delete: (k) => memory.delete(k),
    }
    config = dbConfig(adapter, [provider()], { session: { strategy: "database", revocation: true }, store }).config
    userId = async (email) => (await backend.users()).find((u) => u.email === email)!.id
  })

  it("SR-14: sessions are listed at sign-in; the id is no part of the token, and the store never holds the token", async () => {
    const a1 = (await signIn(config, as("alice"), undefined, new CookieJar())).jar
    const a2 = (await signIn(config, as("alice"))).jar
    await signIn(config, as("bob"))
    const aliceId = await userId(alice.email)
    const list = await listSessions(config, aliceId, { request: get("/", { cookie: a2.header() }) })
    expect(list).toHaveLength(2)
    expect(list.filter((s) => s.current)).toHaveLength(1)
    const tokens = (await backend.sessions()).map((s) => s.sessionToken)
    expect(tokens).toHaveLength(3)
    for (const s of list) for (const t of tokens) expect(t).not.toContain(s.sessionId)
    // Every key and value written to the store is free of the session tokens (the list keeps them sealed).
    const written = JSON.stringify(writes)
    for (const t of tokens) expect(written).not.toContain(t)
    expect(written).toContain(list[0]!.sessionId)
  })

  it("SR-15: revokeSession deletes that row only; revokeUserSessions deletes the user's rows (except one); a new sign-in works", async () => {
    const a1 = (await signIn(config, as("alice"))).jar
    const a2 = (await signIn(config, as("alice"))).jar
    const a3 = (await signIn(config, as("alice"))).jar
    const b = (await signIn(config, as("bob"))).jar
    const aliceId = await userId(alice.email)
    const current = (await listSessions(config, aliceId, { request: get("/", { cookie: a1.header() }) })).find(
      (s) => s.current,
    )!
    expect(await revokeSession(config, current.sessionId)).toBe(true)
    expect(await sessionOf(config, a1)).toBeNull()
    expect(await sessionOf(config, a2)).not.toBeNull()
    expect((await backend.counts()).sessions).toBe(3)
    const keep = (await listSessions(config, aliceId, { request: get("/", { cookie: a3.header() }) })).find(
      (s) => s.current,
    )!
    expect(await revokeUserSessions(config, aliceId, { except: keep.sessionId })).toBe(1)
    expect(await sessionOf(config, a2)).toBeNull()
    expect(await sessionOf(config, a3)).not.toBeNull()
    expect(await revokeUserSessions(config, aliceId)).toBe(1)
    expect(await sessionOf(config, a3)).toBeNull()
    expect(await sessionOf(config, b)).toMatchObject({ user: { email: bob.email } })
    expect((await backend.sessions()).map((s) => s.userId)).toEqual([await userId(bob.email)])
    const again = (await signIn(config, as("alice"))).jar
    expect(await sessionOf(config, again)).toMatchObject({ user: { email: alice.email } })
    expect(await listSessions(config, aliceId)).toHaveLength(1)
  })

  it("SR-16: sign-out deletes the row and unlists it: a copy of the cookie gives no session", async () => {
    const a = (await signIn(config, as("alice"))).jar
    const copy = a.header()
    const csrfToken = await fetchCsrf(config, a)
    await Auth(postForm("/auth/signout", { csrfToken }, { cookie: a.header() }), config)
    expect(await sessionOf(config, copy)).toBeNull()
    expect(await listSessions(config, await userId(alice.email))).toEqual([])
  })

  it("SR-17: an unknown, forged or foreign id ends nothing", async () => {
    const a = (await signIn(config, as("alice"))).jar
    const b = (await signIn(config, as("bob"))).jar
    const bobsId = (await listSessions(config, await userId(bob.email)))[0]!.sessionId
    const token = a.cookies.get(COOKIE)!
    for (const id of [token, token.slice(0, 22), "AAAAAAAAAAAAAAAAAAAAAA"])
      expect(await revokeSession(config, id)).toBe(false)
    expect(await revokeSession(config, bobsId, { userId: await userId(alice.email) })).toBe(false)
    expect(await sessionOf(config, a)).not.toBeNull()
    expect(await sessionOf(config, b)).not.toBeNull()
    expect((await backend.counts()).sessions).toBe(2)
  })

  it("SR-19: turned on later, a database session issued before is listed at its first read and can then be ended", async () => {
    const off = { ...config, session: { strategy: "database" as const } }
    const a = (await signIn(off, as("alice"))).jar
    const aliceId = await userId(alice.email)
    expect(await listSessions(config, aliceId)).toEqual([])
    expect(await sessionOf(config, a)).not.toBeNull()
    expect(await listSessions(config, aliceId)).toHaveLength(1)
    expect(await revokeUserSessions(config, aliceId)).toBe(1)
    expect(await sessionOf(config, a)).toBeNull()
    expect((await backend.counts()).sessions).toBe(0)
  })
})
