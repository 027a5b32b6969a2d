// The auth endpoints (sign-in page, CSRF token, credentials callback, session, sign-out) under /api/auth.
import { handlers } from "@/auth"

export const { GET, POST } = handlers
