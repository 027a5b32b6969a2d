// Type tests: an app's @auth/core config parts fit Gatehouse's AuthConfig unchanged (swap the import, keep the config).
import type { AuthConfig as AuthJsConfig } from "@auth/core"
import type { AuthConfig } from "gatehouse"
import GitHub from "gatehouse/providers/github"
import Credentials from "gatehouse/providers/credentials"

declare const authjs: AuthJsConfig
export const callbacks: AuthConfig["callbacks"] = authjs.callbacks
export const events: AuthConfig["events"] = authjs.events
export const session: AuthConfig["session"] = authjs.session
export const jwt: AuthConfig["jwt"] = authjs.jwt
export const cookies: AuthConfig["cookies"] = authjs.cookies
export const pages: AuthConfig["pages"] = authjs.pages
export const theme: AuthConfig["theme"] = authjs.theme
export const logger: AuthConfig["logger"] = authjs.logger
export const adapter: AuthConfig["adapter"] = authjs.adapter

// The recipes of the Auth.js docs compile as written.
export const config: AuthConfig = {
  secret: process.env.AUTH_SECRET,
  providers: [
    GitHub({ clientId: "id", clientSecret: "secret" }),
    Credentials({
      credentials: { email: {}, password: {} },
      authorize: async (credentials) => (credentials.email === "a@b.c" ? { id: "1", email: "a@b.c" } : null),
    }),
  ],
  callbacks: {
    async jwt({ token, account }) {
      if (account) token.accessToken = account.access_token
      return token
    },
    async session({ session, token }) {
      return { ...session, accessToken: token.accessToken }
    },
    async redirect({ url, baseUrl }) {
      return url.startsWith("/") ? `${baseUrl}${url}` : baseUrl
    },
    signIn: ({ account, profile }) => account?.provider !== "github" || profile?.email_verified !== false,
  },
  events: {
    async signOut(message) {
      if ("token" in message) void message.token?.sub
    },
  },
  session: { strategy: "jwt", maxAge: 3600 },
  pages: { signIn: "/login" },
}
