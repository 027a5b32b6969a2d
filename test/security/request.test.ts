// Security group J (docs/security.md §1.J): request parsing, RQ-01..RQ-05.
// Gatehouse rules (docs/differences.md "Requests"): unknown action/unparsable path -> 400 {"error":"UnknownAction"};
// known action + wrong method -> 405 + Allow, nothing runs; body > 64 KiB form / 1 MiB JSON -> 413 {"error":"InvalidRequest"}
// after reading at most limit+1 bytes; invalid or non-object JSON -> 400 {"error":"InvalidRequest"}; other content
// types -> body ignored; a repeated query key -> first value wins; a repeated form field Gatehouse reads -> 400.
import { describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/index.js"
import Credentials from "../../src/providers/credentials.js"
import { CookieJar, ORIGIN, alice, fetchCsrf, get, makeConfig, postForm } from "../support/flow-kit.js"
import { expectNoSessionCookie, sessionCookiesSet } from "../support/cookies.js"
import { spyLogger } from "../support/logger.js"
import { allowOf, expectJsonError, expectMissingCsrf } from "../support/responses.js"

const CALLBACK = "/auth/callback/credentials"
const FORM_LIMIT = 64 * 1024
const JSON_LIMIT = 1024 * 1024

type Creds = Record<string, unknown>

function setup(extra: Partial<AuthConfig> = {}) {
  const seen: Creds[] = []
  const authorize = vi.fn(async (c: Creds) => {
    seen.push(c)
    return c.username === "alice" && c.password === "password" ? { ...alice } : null
  })
  const config = makeConfig({
    providers: [
      Credentials({ credentials: { username: {}, password: { type: "password" } }, authorize: authorize as never }),
    ],
    ...extra,
  })
  return { config, authorize, seen }
}

async function withCsrf(config: AuthConfig): Promise<{ cookie: string; csrfToken: string }> {
  const jar = new CookieJar()
  const csrfToken = await fetchCsrf(config, jar)
  return { cookie: jar.header(), csrfToken }
}

function req(method: string, path: string, init: { body?: BodyInit; headers?: Record<string, string> } = {}): Request {
  const r: RequestInit & { duplex?: "half" } = { method, headers: init.headers ?? {} }
  if (init.body !== undefined) r.body = init.body
  if (init.body instanceof ReadableStream) r.duplex = "half"
  return new Request(`${ORIGIN}${path}`, r)
}

/** A body stream of `chunk`-sized pieces up to `total` bytes that counts how many chunks were pulled. */
function countingStream(
  total: number,
  chunk = 16 * 1024,
  fill = 0x61,
): { stream: ReadableStream<Uint8Array>; pulled: () => number; cancelled: () => boolean } {
  let pulls = 0
  let sent = 0
  let wasCancelled = false
  const piece = new Uint8Array(chunk).fill(fill)
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulls++
      if (sent >= total) return controller.close()
      sent += chunk
      controller.enqueue(piece.slice())
    },
    cancel() {
      wasCancelled = true
    },
  })
  return { stream, pulled: () => pulls, cancelled: () => wasCancelled }
}

describe("J. request parsing", () => {
  it("RQ-01 unknown actions and unparsable paths get 400 UnknownAction", async () => {
    const { config } = setup()
    const bad = [
      "/auth/foo",
      "/auth",
      "/auth/",
      "/AUTH/session",
      "/auth/SESSION",
      "/auth/sess%E0%A4%Aion", // bad percent-encoding in the path
      "/auth/%E0%A4%A",
      "/auth/%2e%2e/x", // URL parsing turns this into /x: outside basePath
      "/auth/..%2fsession",
      "/auth/%2e%2e%2fsession",
      "/auth/session/extra",
      "/auth/csrf/x",
      "/auth/providers/credentials",
      "/other/session",
      "/auth/__proto__",
      "/auth/constructor",
      "/auth/toString",
    ]
    for (const path of bad) {
      const res = await Auth(get(path), config)
      expect(res.status, path).toBe(400)
      expect(((await res.json()) as { error?: string }).error, path).toBe("UnknownAction")
      expectNoSessionCookie(res)
    }
  })

  it("RQ-01 trailing slash, an empty segment and bad percent-encoding in the query give one documented answer", async () => {
    const { config } = setup()
    // A trailing slash is tolerated (docs/wire-format.md §1.1).
    const trailing = await Auth(get("/auth/session/"), config)
    expect(trailing.status).toBe(200)
    expect(await trailing.json()).toBeNull()
    // `/auth//session`: either the session action (empty segments dropped, as Auth.js) or 400 UnknownAction.
    const dbl = await Auth(get("/auth//session"), config)
    if (dbl.status === 200) expect(await dbl.json()).toBeNull()
    else await expectJsonError(dbl, 400, "UnknownAction")
    // `%2e%2e` that normalises back into the base path is just that path.
    const norm = await Auth(get("/auth/%2e%2e/auth/session"), config)
    expect(norm.status).toBe(200)
    // Bad percent-encoding in the query: no crash, no 5xx.
    for (const path of [
      "/auth/session?x=%E0%A4%A",
      "/auth/session?callbackUrl=%",
      "/auth/signin?callbackUrl=%E0%A4%A&error=%ZZ",
      "/auth/csrf?%=%",
    ]) {
      const res = await Auth(get(path), config)
      expect([200, 400], path).toContain(res.status)
    }
  })

  it("RQ-02 PUT, DELETE, PATCH and OPTIONS get 405 with Allow; HEAD too where no GET is answered", async () => {
    const { config } = setup()
    const cases: [string, string[]][] = [
      ["/auth/session", ["GET", "POST"]],
      ["/auth/csrf", ["GET"]],
      ["/auth/providers", ["GET"]],
      ["/auth/signin", ["GET", "POST"]],
      ["/auth/signout", ["GET", "POST"]],
      ["/auth/callback/credentials", ["POST"]],
    ]
    for (const [path, allow] of cases) {
      const methods = allow.includes("GET")
        ? ["PUT", "DELETE", "PATCH", "OPTIONS"]
        : ["PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]
      for (const method of methods) {
        const res = await Auth(req(method, path), config)
        expect(res.status, `${method} ${path}`).toBe(405)
        expect(allowOf(res), `${method} ${path}`).toEqual(allow)
        if (method !== "HEAD") await expectJsonError(res, 405, "UnknownAction")
        expect(res.headers.getSetCookie(), `${method} ${path}`).toEqual([])
      }
    }
  })

  it("RQ-02 HEAD on a GET route is answered like the GET, without a body (RFC 9110 §9.3.2); HEAD on a callback is 405", async () => {
    const { config } = setup()
    for (const path of [
      "/auth/session",
      "/auth/csrf",
      "/auth/providers",
      "/auth/signin",
      "/auth/signout",
      "/auth/error?error=Configuration",
      "/auth/verify-request",
    ]) {
      const get = await Auth(req("GET", path), config)
      const head = await Auth(req("HEAD", path), config)
      expect(head.status, path).toBe(get.status)
      expect(head.headers.get("content-type"), path).toBe(get.headers.get("content-type"))
      expect(await head.text(), path).toBe("")
      expect((await get.text()).length, path).toBeGreaterThan(0)
    }
    // The one GET that changes state (an OAuth or e-mail callback) is not run by a HEAD: link checkers send HEADs.
    const callback = await Auth(req("HEAD", "/auth/callback/github?code=x&state=y"), config)
    expect(callback.status).toBe(405)
    expect(allowOf(callback)).toEqual(["GET", "POST"])
    expect(callback.headers.getSetCookie()).toEqual([])
  })

  it("RQ-02 GET on POST-only actions and POST on GET-only actions get 405 with Allow; nothing runs", async () => {
    const { config, authorize } = setup()
    const { cookie, csrfToken } = await withCsrf(config)
    const gets: [string, string[]][] = [
      ["/auth/signin/credentials", ["POST"]],
      [`${CALLBACK}?username=alice&password=password&csrfToken=${csrfToken}`, ["POST"]],
    ]
    for (const [path, allow] of gets) {
      const res = await Auth(get(path, { cookie }), config)
      await expectJsonError(res, 405, "UnknownAction")
      expect(allowOf(res), path).toEqual(allow)
      expect(res.headers.getSetCookie(), path).toEqual([])
    }
    for (const path of ["/auth/csrf", "/auth/providers", "/auth/error", "/auth/verify-request"]) {
      const res = await Auth(postForm(path, { csrfToken }, { cookie }), config)
      await expectJsonError(res, 405, "UnknownAction")
      expect(allowOf(res), path).toEqual(["GET"])
      expect(res.headers.getSetCookie(), path).toEqual([])
    }
    // A PUT carrying a perfectly valid credentials form still runs nothing.
    const put = await Auth(
      req("PUT", CALLBACK, {
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        body: new URLSearchParams({ csrfToken, username: "alice", password: "password" }).toString(),
      }),
      config,
    )
    expect(put.status).toBe(405)
    expect(authorize).not.toHaveBeenCalled()
  })

  it("RQ-03 form bodies over 64 KiB and JSON bodies over 1 MiB get 413 InvalidRequest; at the limit they are read", async () => {
    const { config, authorize } = setup()
    const { cookie, csrfToken } = await withCsrf(config)
    const formOf = (size: number) => {
      const prefix = `csrfToken=${csrfToken}&username=bob&password=`
      return prefix + "a".repeat(size - prefix.length)
    }
    const jsonOf = (size: number) => {
      const prefix = `{"csrfToken":"${csrfToken}","username":"bob","password":"`
      return prefix + "a".repeat(size - prefix.length - 2) + `"}`
    }
    const formHeaders = { "content-type": "application/x-www-form-urlencoded", cookie }
    const jsonHeaders = { "content-type": "application/json", cookie }

    const atForm = await Auth(req("POST", CALLBACK, { headers: formHeaders, body: formOf(FORM_LIMIT) }), config)
    expect(atForm.status).toBe(302) // read and handled: CredentialsSignin
    expect(authorize).toHaveBeenCalledTimes(1)
    const overForm = await Auth(req("POST", CALLBACK, { headers: formHeaders, body: formOf(FORM_LIMIT + 1) }), config)
    await expectJsonError(overForm, 413, "InvalidRequest")
    expectNoSessionCookie(overForm)

    expect(jsonOf(JSON_LIMIT).length).toBe(JSON_LIMIT)
    const atJson = await Auth(req("POST", CALLBACK, { headers: jsonHeaders, body: jsonOf(JSON_LIMIT) }), config)
    expect(atJson.status).toBe(302)
    expect(authorize).toHaveBeenCalledTimes(2)
    // A JSON body bigger than the form limit is fine.
    const midJson = await Auth(req("POST", CALLBACK, { headers: jsonHeaders, body: jsonOf(200 * 1024) }), config)
    expect(midJson.status).toBe(302)
    expect(authorize).toHaveBeenCalledTimes(3)
    const overJson = await Auth(req("POST", CALLBACK, { headers: jsonHeaders, body: jsonOf(JSON_LIMIT + 1) }), config)
    await expectJsonError(overJson, 413, "InvalidRequest")

    // Same limits on other POST routes.
    const signout = await Auth(
      req("POST", "/auth/signout", { headers: formHeaders, body: formOf(FORM_LIMIT + 1) }),
      config,
    )
    await expectJsonError(signout, 413, "InvalidRequest")
    const session = await Auth(
      req("POST", "/auth/session", { headers: jsonHeaders, body: jsonOf(JSON_LIMIT + 1) }),
      config,
    )
    await expectJsonError(session, 413, "InvalidRequest")
    expect(authorize).toHaveBeenCalledTimes(3)
  })

  it("RQ-03 a streamed body without Content-Length (or with a lying one) is cut off after limit+1 bytes", async () => {
    const { config, authorize } = setup()
    const { cookie } = await withCsrf(config)
    const CHUNK = 16 * 1024
    const TOTAL = 10 * 1024 * 1024 // 640 chunks on offer
    const cases: { type: string; limit: number; headers?: Record<string, string> }[] = [
      { type: "application/x-www-form-urlencoded", limit: FORM_LIMIT },
      { type: "application/json", limit: JSON_LIMIT },
      { type: "application/x-www-form-urlencoded", limit: FORM_LIMIT, headers: { "content-length": "100" } },
      { type: "application/json", limit: JSON_LIMIT, headers: { "content-length": "100" } },
    ]
    for (const c of cases) {
      const s = countingStream(TOTAL, CHUNK)
      const res = await Auth(
        req("POST", CALLBACK, { headers: { "content-type": c.type, cookie, ...c.headers }, body: s.stream }),
        config,
      )
      const label = `${c.type} ${JSON.stringify(c.headers ?? {})}`
      await expectJsonError(res, 413, "InvalidRequest")
      // limit+1 bytes need ceil((limit+1)/CHUNK) chunks; allow a few more for stream read-ahead.
      const needed = Math.ceil((c.limit + 1) / CHUNK)
      expect(s.pulled(), label).toBeLessThanOrEqual(needed + 4)
      expect(s.pulled(), label).toBeLessThan(TOTAL / CHUNK)
    }
    // A non-streamed body with a Content-Length that understates it is also capped.
    const big = "a".repeat(2 * JSON_LIMIT)
    const lying = await Auth(
      req("POST", CALLBACK, {
        headers: { "content-type": "application/json", "content-length": "10", cookie },
        body: big,
      }),
      config,
    )
    await expectJsonError(lying, 413, "InvalidRequest")
    expect(authorize).not.toHaveBeenCalled()
  })

  it("RQ-04 text/plain, multipart and missing Content-Type bodies are ignored (MissingCSRF), never parsed as another type", async () => {
    const { config, authorize } = setup()
    const { cookie, csrfToken } = await withCsrf(config)
    const form = new URLSearchParams({ csrfToken, username: "alice", password: "password" }).toString()
    const json = JSON.stringify({ csrfToken, username: "alice", password: "password" })

    const textPlain = await Auth(
      req("POST", CALLBACK, { headers: { "content-type": "text/plain", cookie }, body: form }),
      config,
    )
    await expectMissingCsrf(textPlain)
    const textJson = await Auth(
      req("POST", CALLBACK, { headers: { "content-type": "text/plain;charset=UTF-8", cookie }, body: json }),
      config,
    )
    await expectMissingCsrf(textJson)
    const fd = new FormData()
    fd.set("csrfToken", csrfToken)
    fd.set("username", "alice")
    fd.set("password", "password")
    const multipartReq = new Request(`${ORIGIN}${CALLBACK}`, { method: "POST", headers: { cookie }, body: fd })
    expect(multipartReq.headers.get("content-type")).toMatch(/^multipart\/form-data/)
    await expectMissingCsrf(await Auth(multipartReq, config))
    const noType = await Auth(
      req("POST", CALLBACK, { headers: { cookie }, body: new TextEncoder().encode(form) }),
      config,
    )
    expect(noType.status).not.toBe(500)
    if (noType.status !== 415) await expectMissingCsrf(noType)
    // A form body under a JSON content type is invalid JSON, not a form.
    const formAsJson = await Auth(
      req("POST", CALLBACK, { headers: { "content-type": "application/json", cookie }, body: form }),
      config,
    )
    await expectJsonError(formAsJson, 400, "InvalidRequest")
    // A JSON body under a form content type is one odd form key, not JSON.
    const jsonAsForm = await Auth(
      req("POST", CALLBACK, { headers: { "content-type": "application/x-www-form-urlencoded", cookie }, body: json }),
      config,
    )
    await expectMissingCsrf(jsonAsForm)
    expect(authorize).not.toHaveBeenCalled()

    // JSON with parameters in the media type is still JSON.
    const charset = await Auth(
      req("POST", CALLBACK, { headers: { "content-type": "application/json; charset=utf-8", cookie }, body: json }),
      config,
    )
    expect(charset.status).toBe(302)
    expect(sessionCookiesSet(charset).length).toBeGreaterThan(0)
  })

  it("RQ-04 invalid JSON and JSON that is not an object get 400 InvalidRequest", async () => {
    const log = spyLogger()
    const { config, authorize } = setup({ logger: log.logger })
    const { cookie, csrfToken } = await withCsrf(config)
    const bodies = [
      `{"csrfToken":"${csrfToken}",`,
      "[1,2]",
      `"${csrfToken}"`,
      "null",
      "42",
      "true",
      "{'a':1}",
      "\u0000",
      `{"a":1}{"b":2}`,
    ]
    for (const body of bodies) {
      const res = await Auth(
        req("POST", CALLBACK, { headers: { "content-type": "application/json", cookie }, body }),
        config,
      )
      await expectJsonError(res, 400, "InvalidRequest")
      expectNoSessionCookie(res)
    }
    for (const body of ["{", "[]"]) {
      const res = await Auth(
        req("POST", "/auth/session", { headers: { "content-type": "application/json", cookie }, body }),
        config,
      )
      expect(res.status, body).toBe(400)
      const res2 = await Auth(
        req("POST", "/auth/signout", { headers: { "content-type": "application/json", cookie }, body }),
        config,
      )
      await expectJsonError(res2, 400, "InvalidRequest")
    }
    expect(authorize).not.toHaveBeenCalled()
  })

  it("RQ-05 lone surrogates, NUL and overlong UTF-8 in query, body and form do not crash or escape the origin", async () => {
    const { config, seen } = setup()
    const { cookie, csrfToken } = await withCsrf(config)
    const callbackUrls = ["%ED%A0%80", "/%00evil", "%C0%AF%C0%AFevil.example", "/%C0%AE%C0%AE/x", "%00", "/%ED%B0%80"]
    for (const cb of callbackUrls) {
      // query string
      const q = await Auth(get(`/auth/signin?callbackUrl=${cb}`, { cookie }), config)
      expect(q.status, cb).toBeLessThan(500)
      // form body (raw, so the bad bytes arrive as sent)
      const body = `csrfToken=${csrfToken}&username=alice&password=password&callbackUrl=${cb}`
      const f = await Auth(
        req("POST", CALLBACK, { headers: { "content-type": "application/x-www-form-urlencoded", cookie }, body }),
        config,
      )
      expect(f.status, cb).toBeLessThan(500)
      if (f.status === 302) {
        const loc = f.headers.get("location") ?? ""
        expect(new URL(loc, ORIGIN).origin, cb).toBe(ORIGIN)
        expect(loc).not.toMatch(/[\u0000-\u001f]/)
      }
    }
    // JSON with a lone surrogate and a NUL in values.
    seen.length = 0
    const j = await Auth(
      req("POST", CALLBACK, {
        headers: { "content-type": "application/json", cookie },
        body: `{"csrfToken":"${csrfToken}","username":"\\ud800alice\\u0000","password":"\\udfff","callbackUrl":"/\\ud800\\u0000"}`,
      }),
      config,
    )
    expect([302, 400]).toContain(j.status)
    expectNoSessionCookie(j)
    if (j.status === 302) expect(new URL(j.headers.get("location") ?? "", ORIGIN).origin).toBe(ORIGIN)
    // Form values with bytes that are not UTF-8 (CESU surrogate, overlong).
    const f2 = await Auth(
      req("POST", CALLBACK, {
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        body: `csrfToken=${csrfToken}&username=%ED%A0%80&password=%C0%80`,
      }),
      config,
    )
    expect([302, 400]).toContain(f2.status)
    expectNoSessionCookie(f2)
  })

  it("RQ-05 a `;;`/`=`-laden or non-UTF-8 Cookie header is survived: 200 null session", async () => {
    const { config } = setup()
    const headers = [
      ";;;;",
      "=;==;===",
      ";=;authjs.session-token=;=x; ;a=b=c;;",
      "authjs.session-token==; authjs.session-token.0=; authjs.csrf-token=%",
      "authjs.session-token=%E0%A4%A; authjs.callback-url=%",
      "authjs.session-token=\xff\xfe\xfd; x=\x80",
      "authjs.session-token",
      "  ;  authjs.session-token  =  abc  ;",
      "__proto__=1; constructor=2; toString=3; hasOwnProperty=4",
    ]
    for (const cookie of headers) {
      const res = await Auth(get("/auth/session", { cookie }), config)
      expect(res.status, JSON.stringify(cookie)).toBe(200)
      expect(await res.json()).toBeNull()
      expectNoSessionCookie(res)
      // The CSRF endpoint still works with such a header.
      const c = await Auth(get("/auth/csrf", { cookie }), config)
      expect(c.status, JSON.stringify(cookie)).toBe(200)
    }
  })

  it("RQ-05 a repeated callbackUrl: the first value wins in the query string; in a form body it is refused with 400 (HN-01)", async () => {
    const { config, authorize } = setup()
    const { cookie, csrfToken } = await withCsrf(config)
    // Form body: refused before anything runs, and the answer names neither value.
    const body = `csrfToken=${csrfToken}&username=alice&password=password&callbackUrl=%2Ffirst&callbackUrl=%2Fsecond`
    const f = await Auth(
      req("POST", CALLBACK, { headers: { "content-type": "application/x-www-form-urlencoded", cookie }, body }),
      config,
    )
    await expectJsonError(f, 400, "InvalidRequest")
    expect(await f.text()).not.toMatch(/first|second/)
    expectNoSessionCookie(f)
    expect(authorize).not.toHaveBeenCalled()
    // Query string (no callbackUrl in the body): the first value, as Hono's `c.req.query()` reads it.
    const q = await Auth(
      req("POST", `${CALLBACK}?callbackUrl=%2Ffirst&callbackUrl=%2Fsecond`, {
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        body: `csrfToken=${csrfToken}&username=alice&password=password`,
      }),
      config,
    )
    expect(q.status).toBe(302)
    expect(q.headers.get("location")).toBe(`${ORIGIN}/first`)
    // Sign-out with a repeated body callbackUrl: refused too, the session cookie is not cleared.
    const so = await Auth(
      req("POST", "/auth/signout", {
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        body: `csrfToken=${csrfToken}&callbackUrl=%2Ffirst&callbackUrl=%2Fsecond`,
      }),
      config,
    )
    await expectJsonError(so, 400, "InvalidRequest")
    expect(so.headers.getSetCookie()).toEqual([])
    // A JSON body keeps one value (JSON.parse: the last), as every JavaScript reader of it does.
    const j = await Auth(
      req("POST", CALLBACK, {
        headers: { "content-type": "application/json", cookie },
        body: `{"csrfToken":"${csrfToken}","username":"alice","password":"password","callbackUrl":"/first","callbackUrl":"/second"}`,
      }),
      config,
    )
    expect(j.headers.get("location") ?? ((await j.clone().json()) as { url?: string }).url).toBe(`${ORIGIN}/second`)
    // The sign-in page carries the first value.
    const page = await Auth(get("/auth/signin?callbackUrl=%2Ffirst&callbackUrl=%2Fsecond", { cookie }), config)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain("/first")
    expect(html).not.toContain("/second")
    for (const c of page.headers.getSetCookie()) expect(decodeURIComponent(c)).not.toContain("/second")
  })
})
