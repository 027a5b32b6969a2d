// The types of gatehouse/v4 as a next-auth 4 app uses them: one app source (module augmentation of Session, User and
// JWT; NextAuthOptions with callbacks; NextAuth's forms; getServerSession with its session type; getToken; withAuth
// and req.nextauth.token) is compiled by tsc twice in a scratch project: against the built gatehouse/v4 declarations,
// and with its imports swapped back to next-auth 4.24.15's. Both must compile, the two wrong uses marked with
// ts-expect-error directives included (an error that does not happen fails the compile).
import { spawnSync } from "node:child_process"
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { beforeAll, describe, expect, it } from "vitest"
import { ensureDist } from "../support/dist.js"

const ROOT = fileURLToPath(new URL("../../", import.meta.url))
const SCRATCH = join(ROOT, "node_modules/.cache/gatehouse-v4-types")

const APP = `
import NextAuth, { type DefaultSession, getServerSession, type NextAuthOptions } from "gatehouse/v4"
import { getServerSession as fromNext } from "gatehouse/v4/next"
import { decode, encode, getToken } from "gatehouse/v4/jwt"
import { withAuth } from "gatehouse/v4/middleware"
import type { NextApiRequest, NextApiResponse, GetServerSidePropsContext } from "next"
import type { NextRequest } from "next/server"

declare module "gatehouse/v4" {
  interface Session {
    user: { id: string } & DefaultSession["user"]
    role: "admin" | "user"
  }
  interface User {
    role?: "admin" | "user"
  }
}
declare module "gatehouse/v4/jwt" {
  interface JWT {
    role?: "admin" | "user"
  }
}

export const authOptions: NextAuthOptions = {
  providers: [],
  secret: "s",
  session: { strategy: "jwt", maxAge: 3600 },
  pages: { signIn: "/login", error: "/oops" },
  callbacks: {
    async jwt({ token, user }) {
      if (user) token.role = user.role
      return token
    },
    async session({ session, token }) {
      session.user.id = token.sub ?? ""
      session.role = token.role ?? "user"
      return session
    },
    redirect: ({ url, baseUrl }) => (url.startsWith(baseUrl) ? url : baseUrl),
  },
  events: { signIn: ({ user }) => void user.email },
  logger: { error: (code, metadata) => void [code, metadata], warn: (code) => void code },
  jwt: { encode: (params) => encode(params), decode: (params) => decode(params) },
}

const handler = NextAuth(authOptions)
export { handler as GET, handler as POST }

export async function api(req: NextApiRequest, res: NextApiResponse) {
  await NextAuth(req, res, authOptions)
  const session = await getServerSession(req, res, authOptions)
  const role: "admin" | "user" | undefined = session?.role
  const id: string | undefined = session?.user.id
  const token = await getToken({ req })
  const tokenRole: "admin" | "user" | undefined = token?.role
  const raw: string = await getToken({ req, raw: true })
  return [role, id, tokenRole, raw]
}

export async function getServerSideProps(context: GetServerSidePropsContext) {
  const session = await getServerSession(context.req, context.res, authOptions)
  const custom = await fromNext(context.req, context.res, {
    ...authOptions,
    callbacks: { session: () => ({ shaped: true as const }) },
  })
  const shaped: true | undefined = custom?.shaped
  return { props: { email: session?.user.email ?? null, shaped } }
}

export async function page() {
  return (await getServerSession(authOptions))?.user.id
}

export async function wrong() {
  const session = await getServerSession(authOptions)
  // @ts-expect-error the augmentation makes role a string union, not a number
  const role: number = session!.role
  // @ts-expect-error getToken takes a request
  await getToken({})
  return role
}

export async function route(request: NextRequest) {
  return NextAuth(request, { params: Promise.resolve({ nextauth: ["session"] }) }, authOptions)
}

export default withAuth(
  function middleware(req) {
    const role: "admin" | "user" | undefined = req.nextauth.token?.role
    void role
  },
  {
    callbacks: { authorized: ({ token, req }) => token?.role === "admin" && req.nextUrl.pathname !== "/" },
    pages: { signIn: "/login" },
    secret: "s",
  },
)
`

/** The app with its imports spelled for next-auth 4 (the swap in reverse). */
function asNextAuth(source: string): string {
  return source.replaceAll('"gatehouse/v4/', '"next-auth/').replaceAll('"gatehouse/v4"', '"next-auth"')
}

const compilerOptions = {
  target: "ES2022",
  // What a Next.js app's tsconfig.json says.
  module: "ESNext",
  moduleResolution: "Bundler",
  lib: ["ES2023", "DOM", "DOM.Iterable"],
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  types: ["node"],
}

/** Compiles one file in its own program; the diagnostics, empty when it compiles. */
function compile(name: string, source: string, paths?: Record<string, string[]>): string {
  const dir = join(SCRATCH, name)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, "app.ts"), source)
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }))
  const options = paths ? { ...compilerOptions, paths } : compilerOptions
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: options, files: ["app.ts"] }))
  const tsc = join(ROOT, "node_modules/typescript/bin/tsc")
  const result = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: dir, encoding: "utf8" })
  return `${result.stdout}${result.stderr}`.trim()
}

/** The scratch project sits outside the package: "gatehouse/v4…" is mapped to the built declarations. */
const GATEHOUSE_PATHS = {
  "gatehouse/v4": [join(ROOT, "dist/integrations/next-v4/index.d.ts")],
  "gatehouse/v4/next": [join(ROOT, "dist/integrations/next-v4/next.d.ts")],
  "gatehouse/v4/jwt": [join(ROOT, "dist/integrations/next-v4/jwt.d.ts")],
  "gatehouse/v4/middleware": [join(ROOT, "dist/integrations/next-v4/middleware.d.ts")],
}

describe("gatehouse/v4 types", () => {
  beforeAll(() => ensureDist(), 600_000)

  it("compiles a next-auth 4 app's typed code (and refuses its two wrong uses), as next-auth 4.24.15 does", () => {
    expect(compile("next-auth", asNextAuth(APP))).toBe("")
    expect(compile("gatehouse", APP, GATEHOUSE_PATHS)).toBe("")
  }, 120_000)
})
