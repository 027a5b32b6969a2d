// The move to the v5 API: gatehouse/next's NextAuth on the app's authOptions (auth-options.ts: the object that
// pages/api/auth/[...nextauth].ts exported, now typed NextAuthConfig). `authorized` takes over from withAuth in the
// middleware, and v4Cookies "accept" lets users who signed in before the move stay signed in: their
// next-auth.session-token is read once and replaced by an authjs.session-token.
import NextAuth from "gatehouse/next"
import { authOptions } from "./auth-options"

export const { handlers, auth } = NextAuth({
  ...authOptions,
  callbacks: {
    ...authOptions.callbacks,
    authorized: ({ auth }) => auth !== null,
  },
  v4Cookies: "accept",
})
