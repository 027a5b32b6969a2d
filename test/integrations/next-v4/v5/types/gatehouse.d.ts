// The session's user id for the v5 API's types too (types/next-auth.d.ts declares it for gatehouse/v4's).
import type { DefaultSession } from "gatehouse/types"

declare module "gatehouse/types" {
  interface Session {
    user: { id: string } & DefaultSession["user"]
  }
}
