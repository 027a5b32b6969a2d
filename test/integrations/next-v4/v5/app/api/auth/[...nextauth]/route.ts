// The auth endpoints under /api/auth as an app-router route handler (it replaces pages/api/auth/[...nextauth].ts).
import { handlers } from "../../../../auth"

export const { GET, POST } = handlers
