// Type tests (compiled by tsc, never run): module augmentation of Session, User and JWT in "gatehouse/types" reaches
// every entry (node, express, hono, next, client, react), and the integrations' APIs accept Auth.js-style code.
import type { IncomingMessage, ServerResponse } from "node:http"
import type { JWT } from "gatehouse/jwt"
import type { AuthConfig, Session, User } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"
import { createHandler, getSession as nodeGetSession } from "gatehouse/node"
import { ExpressAuth, getSession as expressGetSession, type ExpressAuthConfig } from "gatehouse/express"
import { authHandler, getAuthUser, initAuthConfig, verifyAuth, type AuthUser } from "gatehouse/hono"
import NextAuth from "gatehouse/next"
import { getSession as clientGetSession, signIn, type SignInResponse } from "gatehouse/client"
import { SessionProvider, useSession } from "gatehouse/react"
import express from "express"
import { Hono } from "hono"
import { createElement } from "react"

declare module "gatehouse/types" {
  interface Session {
    tenantId?: string
  }
  interface User {
    role?: "admin" | "member"
  }
  interface JWT {
    tenantId?: string
  }
}

/** Compiles only when A and B are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
function expectType<T extends true>(_proof: T): void {}

const config: AuthConfig = {
  secret: "a-secret-of-at-least-thirty-two-characters",
  providers: [Credentials({ credentials: { username: {} }, authorize: async () => ({ id: "1", role: "admin" }) })],
  callbacks: {
    jwt: ({ token, user }) => ({ ...token, tenantId: user?.role === "admin" ? "t1" : token.tenantId }),
    session: ({ session, token }) => ({ ...session, tenantId: token.tenantId }),
  },
}

// The augmented members are the declared types, not the index signature's `unknown`.
expectType<Equal<Session["tenantId"], string | undefined>>(true)
expectType<Equal<User["role"], "admin" | "member" | undefined>>(true)
expectType<Equal<JWT["tenantId"], string | undefined>>(true)

export async function node(req: IncomingMessage, res: ServerResponse): Promise<void> {
  await createHandler(config)(req, res)
  const session = await nodeGetSession(req, config, res)
  expectType<Equal<typeof session, Session | null>>(true)
  const tenant: string | undefined = session?.tenantId
  void tenant
}

export function expressApp(): void {
  const app = express()
  const expressConfig: ExpressAuthConfig = config
  app.set("trust proxy", true)
  app.use("/auth", ExpressAuth(expressConfig))
  app.get("/me", async (req, res) => {
    const session = await expressGetSession(req, expressConfig)
    res.json({ tenant: session?.tenantId ?? null })
  })
}

export function honoApp(): void {
  const app = new Hono()
  app.use(
    "*",
    initAuthConfig(() => ({ ...config, basePath: "/api/auth" })),
  )
  app.use("/api/auth/*", authHandler())
  app.use("/api/*", verifyAuth())
  app.get("/api/me", async (c) => {
    const fromContext: AuthUser = c.get("authUser")
    const user = await getAuthUser(c)
    const tenant: string | undefined = fromContext.session.tenantId ?? user?.session.tenantId ?? user?.token?.tenantId
    return c.json({ tenant: tenant ?? null })
  })
}

export const {
  handlers,
  auth,
  signIn: serverSignIn,
  signOut: serverSignOut,
  unstable_update,
} = NextAuth({
  ...config,
  callbacks: { ...config.callbacks, authorized: ({ auth: session }) => session?.tenantId !== undefined },
})

export async function nextServerComponent(): Promise<string | undefined> {
  const session = await auth()
  return session?.tenantId
}

export const wrapped = auth((req) => {
  const tenant: string | undefined = req.auth?.tenantId
  return tenant ? undefined : Response.json({ error: "no tenant" }, { status: 403 })
})

export async function browser(): Promise<void> {
  const result: SignInResponse = await signIn("credentials", { redirect: false, username: "a" })
  const session = await clientGetSession()
  void result.error
  void session?.tenantId
}

export function ReactView() {
  const { data, status, update } = useSession({ required: true, onUnauthenticated: () => {} })
  expectType<Equal<typeof status, "authenticated" | "loading">>(true)
  void update({ tenantId: "t2" })
  return createElement(SessionProvider, { basePath: "/api/auth", refetchInterval: 60 }, data?.tenantId ?? "none")
}
