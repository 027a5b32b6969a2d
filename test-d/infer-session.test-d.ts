// Type tests (compiled by tsc, never run): InferSession / InferJWT read the session and token types off a config's
// callbacks, and every integration's session read returns them with no module augmentation.
// integrations.test-d.ts augments `gatehouse/types` for the whole program (Session.tenantId, User.role, JWT.tenantId):
// here those fields show that augmentation wins, and `tier` / `plan` (not augmented) show the inference.
import type { IncomingMessage } from "node:http"
import type { AuthConfig, InferJWT, InferSession, JWT, Session } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"
import { getSession as nodeGetSession } from "gatehouse/node"
import { type ExpressAuthConfig, getSession as expressGetSession } from "gatehouse/express"
import { type AuthUser, type AuthVariables, getAuthUser, initAuthConfig, verifyAuth } from "gatehouse/hono"
import NextAuth from "gatehouse/next"
import { getSession as solidGetSession } from "gatehouse/solid-start"
import { QwikAuth$ } from "gatehouse/qwik"
import type { Register as SvelteKitRegister } from "gatehouse/sveltekit"
import { getSession as clientGetSession } from "gatehouse/client"
import { type SessionContextValue, useSession } from "gatehouse/react"
import type { Request as ExpressRequest } from "express"
import { Hono } from "hono"
import { expectTypeOf } from "vitest"

const providers = [Credentials({ credentials: { username: {} }, authorize: async () => ({ id: "1" }) })]

// The style Auth.js users write: `satisfies`, so the session callback's `token` is JWT and `token.tier` is `unknown`.
const config = {
  providers,
  callbacks: {
    jwt({ token }) {
      return { ...token, tier: "admin" as const, plan: { seats: 5 as const }, role: "member" as const }
    },
    session({ session, token }) {
      return {
        ...session,
        plan: token.plan,
        tenantId: token.tenantId,
        user: { ...session.user, tier: token.tier, role: token.role },
      }
    },
  },
} satisfies AuthConfig

type AppSession = InferSession<typeof config>
type AppJWT = InferJWT<typeof config>

// A field the session callback takes from the token has the type the jwt callback returns for it, literal kept,
// in `user` too (looked up at the token's top level).
expectTypeOf<AppSession["user"]["tier"]>().toEqualTypeOf<"admin">()
expectTypeOf<AppSession["plan"]>().toEqualTypeOf<{ seats: 5 }>()
expectTypeOf<AppJWT["tier"]>().toEqualTypeOf<"admin">()
expectTypeOf<AppJWT["plan"]>().toEqualTypeOf<{ seats: 5 }>()
// Augmentation wins where both declare a field: User.role is "admin" | "member", the token's "member" is not used.
expectTypeOf<AppSession["user"]["role"]>().toEqualTypeOf<"admin" | "member" | undefined>()
expectTypeOf<AppSession["tenantId"]>().toEqualTypeOf<string | undefined>()
// What is sent as `expires` is the ISO string.
expectTypeOf<AppSession["expires"]>().toEqualTypeOf<string>()
expectTypeOf<AppSession>().not.toBeAny()
expectTypeOf<AppSession["user"]>().not.toBeAny()
expectTypeOf<AppJWT>().not.toBeAny()
// A field the callbacks do not return is an error.
// @ts-expect-error -- `nope` is not in the session
type NoSuchField = AppSession["user"]["nope"]
// @ts-expect-error -- nor at the top level
type NoSuchTopField = AppSession["nope"]
// The inferred session is still a Session (assignable where Session is expected).
expectTypeOf<AppSession>().toMatchTypeOf<Session>()

// An async session callback, and one that may return null: the resolved, non-null result.
const asyncConfig = {
  providers,
  callbacks: {
    jwt: async ({ token }) => ({ ...token, tier: "pro" as const }),
    session: async ({ session, token }) => (token.sub ? { expires: session.expires, tier: token.tier } : null),
  },
} satisfies AuthConfig
expectTypeOf<InferSession<typeof asyncConfig>>().toEqualTypeOf<{ expires: string; tier: "pro" }>()

// A jwt callback that returns the token unchanged in one branch: TypeScript reduces the branches' union to JWT (the
// other branch is a subtype), so the field stays `unknown`, never `any` (guide.md#typed-sessions says how to keep it).
const branching = {
  providers,
  callbacks: {
    jwt: ({ token, user }) => (user ? { ...token, tier: "pro" as const } : token),
    session: ({ session, token }) => ({ expires: session.expires, tier: token.tier }),
  },
} satisfies AuthConfig
expectTypeOf<InferJWT<typeof branching>>().toEqualTypeOf<JWT>()
expectTypeOf<InferSession<typeof branching>>().toEqualTypeOf<{ expires: string; tier: unknown }>()

// A field the token does not have stays `unknown` (no guess): renaming in the session callback needs a typed token.
const renamed = {
  providers,
  callbacks: {
    jwt: ({ token }) => ({ ...token, tier: "pro" as const }),
    session: ({ session, token }) => ({ expires: session.expires, level: token.tier, other: token.unset }),
  },
} satisfies AuthConfig
expectTypeOf<InferSession<typeof renamed>["level"]>().toBeUnknown()
expectTypeOf<InferSession<typeof renamed>["other"]>().toBeUnknown()

// No callbacks, only a jwt callback, or a config typed `: AuthConfig`: the default Session (with its augmentation).
expectTypeOf<InferSession<{ providers: typeof providers }>>().toEqualTypeOf<Session>()
expectTypeOf<InferSession<{ providers: typeof providers; callbacks: { jwt: () => JWT } }>>().toEqualTypeOf<Session>()
const typed: AuthConfig = config
expectTypeOf<InferSession<typeof typed>>().toEqualTypeOf<Session>()
expectTypeOf<InferJWT<typeof typed>>().toEqualTypeOf<JWT>()
expectTypeOf<InferJWT<{ providers: [] }>>().toEqualTypeOf<JWT>()
// `any` gives the default types, never `any`.
expectTypeOf<InferSession<any>>().toEqualTypeOf<Session>()

declare const nodeReq: IncomingMessage
declare const expressReq: ExpressRequest
declare const webRequest: Request

export async function serverReads(): Promise<void> {
  // gatehouse/node and gatehouse/express: getSession(req, config).
  expectTypeOf(await nodeGetSession(nodeReq, config)).toEqualTypeOf<AppSession | null>()
  const nodeSession = await nodeGetSession(nodeReq, config)
  expectTypeOf(nodeSession?.user.tier).toEqualTypeOf<"admin" | undefined>()
  // @ts-expect-error -- not returned by the callbacks
  void nodeSession?.user.nope
  expectTypeOf(await expressGetSession(expressReq, config)).toEqualTypeOf<AppSession | null>()
  // A config typed with the integration's own type keeps today's Session.
  const expressTyped: ExpressAuthConfig = config
  expectTypeOf(await expressGetSession(expressReq, expressTyped)).toEqualTypeOf<Session | null>()
  expectTypeOf(await nodeGetSession(nodeReq, typed)).toEqualTypeOf<Session | null>()
  // gatehouse/solid-start.
  expectTypeOf(await solidGetSession(webRequest, config)).toEqualTypeOf<AppSession | null>()
}

// gatehouse/next: auth(), the wrapped handler's req.auth, unstable_update, and the function form of the config.
const next = NextAuth(config)
export async function nextReads(): Promise<void> {
  expectTypeOf(await next.auth()).toEqualTypeOf<AppSession | null>()
  expectTypeOf(await next.unstable_update({})).toEqualTypeOf<AppSession | null>()
  const fromFunction = NextAuth(() => config)
  expectTypeOf(await fromFunction.auth()).toEqualTypeOf<AppSession | null>()
  const fromAsyncFunction = NextAuth(async (request) => (request ? config : config))
  expectTypeOf(await fromAsyncFunction.auth()).toEqualTypeOf<AppSession | null>()
  expectTypeOf(await NextAuth(typed).auth()).toEqualTypeOf<Session | null>()
}
export const nextMiddleware = next.auth((req) => {
  expectTypeOf(req.auth).toEqualTypeOf<AppSession | null>()
  return req.auth?.user.tier === "admin" ? undefined : Response.json({ error: "forbidden" }, { status: 403 })
})

// gatehouse/hono: the env initAuthConfig's middleware carries types `c.get("authUser")` of the routes chained after it.
export const honoChained = new Hono()
  .use(
    "*",
    initAuthConfig(() => config),
  )
  .use("/api/*", verifyAuth())
  .get("/api/me", async (c) => {
    expectTypeOf(c.get("authUser").session).toEqualTypeOf<AppSession>()
    expectTypeOf(c.get("authUser").token).toEqualTypeOf<AppJWT | undefined>()
    expectTypeOf(await getAuthUser(c)).toEqualTypeOf<AuthUser<AppSession, AppJWT> | null>()
    return c.json({ tier: c.get("authUser").session.user.tier })
  })
// Or declared on the app.
export const honoDeclared = new Hono<{ Variables: AuthVariables<typeof config> }>().get("/me", async (c) => {
  expectTypeOf(c.get("authUser").session.user.tier).toEqualTypeOf<"admin">()
  const user = await getAuthUser(c)
  expectTypeOf(user?.session.plan).toEqualTypeOf<{ seats: 5 } | undefined>()
  return c.text("ok")
})

// gatehouse/qwik: useSession's route loader carries the config's session.
export const { useSession: useQwikSession } = QwikAuth$(() => config)
expectTypeOf<ReturnType<typeof useQwikSession>["value"]>().toEqualTypeOf<AppSession | null>()

// gatehouse/sveltekit: App.Locals is global, so the app names its config once (src/app.d.ts).
declare module "gatehouse/sveltekit" {
  interface Register {
    config: typeof config
  }
}
export async function svelteKitLocals(locals: App.Locals): Promise<void> {
  expectTypeOf(await locals.auth()).toEqualTypeOf<AppSession | null>()
  expectTypeOf<SvelteKitRegister["config"]>().toEqualTypeOf<typeof config>()
}

// The browser: the server config comes in through a type-only import (here, `typeof config`).
export async function browserReads(): Promise<void> {
  expectTypeOf(await clientGetSession<AppSession>()).toEqualTypeOf<AppSession | null>()
  expectTypeOf(await clientGetSession()).toEqualTypeOf<Session | null>()
}

export function ReactReads(): void {
  const typedValue = useSession<AppSession>()
  expectTypeOf(typedValue).toEqualTypeOf<SessionContextValue<false, AppSession>>()
  if (typedValue.status === "authenticated") expectTypeOf(typedValue.data.user.tier).toEqualTypeOf<"admin">()
  const typedRequired = useSession<AppSession, true>({ required: true })
  expectTypeOf(typedRequired.status).toEqualTypeOf<"authenticated" | "loading">()
  expectTypeOf(typedRequired.data).toEqualTypeOf<AppSession | null>()
  // next-auth/react's boolean first argument keeps its meaning: `required`.
  const required = useSession<true>({ required: true })
  expectTypeOf(required.status).toEqualTypeOf<"authenticated" | "loading">()
  expectTypeOf(required.data).toEqualTypeOf<Session | null>()
  const plain = useSession()
  expectTypeOf(plain.data).toEqualTypeOf<Session | null>()
  expectTypeOf<ReturnType<typeof useSession>["data"]>().toEqualTypeOf<Session | null>()
  expectTypeOf(typedValue.data).not.toBeAny()
}
