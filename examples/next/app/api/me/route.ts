// A route handler wrapped by auth(): the session arrives as req.auth.
import { auth } from "@/auth"

export const GET = auth((req) => {
  if (!req.auth) return Response.json({ error: "not signed in" }, { status: 401 })
  return Response.json({ name: req.auth.user?.name ?? null })
})
