// Module augmentation, as a next-auth v4 app declares it: the session's user carries an id (set by the session
// callback in pages/api/auth/[...nextauth].ts).
import type { DefaultSession } from "gatehouse/v4"

declare module "gatehouse/v4" {
  interface Session {
    user: { id: string } & DefaultSession["user"]
  }
}
