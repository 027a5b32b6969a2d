// app/api/edge-session/route.ts of the Edge test app: a route handler on the Edge runtime that reads the session with
// auth() (next/headers) and says which runtime answered (Next's Edge runtime defines the global EdgeRuntime). It also
// loads gatehouse/jwt as a plain import, as the official example's auth.ts loads next-auth/jwt.
import "gatehouse/jwt"
// @ts-ignore -- "@/auth" is examples/next/auth.ts, which the scratch app's tsconfig maps @/ to
import { auth } from "@/auth"

export const runtime = "edge"

export async function GET(): Promise<Response> {
  const session = await auth()
  const edgeRuntime = (globalThis as { EdgeRuntime?: unknown }).EdgeRuntime
  return Response.json({
    name: session?.user?.name ?? null,
    runtime: typeof edgeRuntime === "string" ? edgeRuntime : null,
  })
}
