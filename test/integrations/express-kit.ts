// Shared plumbing of the gatehouse/express tests: both Express majors, an app served on 127.0.0.1, and a fetch client
// with a cookie jar that walks the credentials sign-in (GET /csrf, POST /callback/credentials) over real HTTP.
import { createRequire } from "node:module"
import { createServer } from "node:http"
import express5 from "express"
import { CookieJar } from "../support/cookies.js"
import { listenLocal } from "../support/listen.js"

export type ExpressModule = typeof express5
export type ExpressApp = ReturnType<ExpressModule>

const require = createRequire(import.meta.url)
/** Express 4, installed as the npm alias `express4`; its API is the subset of Express 5's these tests use. */
const express4 = require("express4") as ExpressModule

/** The Express majors every test runs against. */
export const EXPRESS_VERSIONS: ReadonlyArray<readonly [string, ExpressModule]> = [
  ["Express 5", express5],
  ["Express 4", express4],
]

export interface Served {
  origin: string
  port: number
  stop(): Promise<void>
}

/** Serves an Express app on 127.0.0.1 with an OS-chosen port. */
export async function serve(app: ExpressApp): Promise<Served> {
  const listening = await listenLocal(createServer(app))
  return { origin: listening.origin, port: Number(new URL(listening.origin).port), stop: listening.stop }
}

/** A browser stand-in: every request carries the jar's cookies (and `headers`), redirects are not followed. */
export class Client {
  readonly jar = new CookieJar()
  constructor(
    readonly origin: string,
    readonly headers: Record<string, string> = {},
    readonly basePath = "/auth",
  ) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers({ ...this.headers, ...(init.headers as Record<string, string> | undefined) })
    const cookie = this.jar.header()
    if (cookie) headers.set("cookie", cookie)
    const res = await fetch(`${this.origin}${path}`, { ...init, headers, redirect: "manual" })
    this.jar.store(res)
    return res
  }

  postForm(path: string, form: Record<string, string>): Promise<Response> {
    return this.request(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
    })
  }

  postJson(path: string, body: unknown): Promise<Response> {
    return this.request(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    })
  }

  async csrf(): Promise<string> {
    const res = await this.request(`${this.basePath}/csrf`)
    return ((await res.json()) as { csrfToken: string }).csrfToken
  }

  /** The credentials sign-in a form would make; returns the callback's response (302 on success). */
  async signIn(username = "alice", password = "password", extra: Record<string, string> = {}): Promise<Response> {
    const csrfToken = await this.csrf()
    return this.postForm(`${this.basePath}/callback/credentials`, {
      csrfToken,
      username,
      password,
      callbackUrl: `${this.origin}/me`,
      ...extra,
    })
  }

  async session(): Promise<unknown> {
    return (await this.request(`${this.basePath}/session`)).json()
  }
}
