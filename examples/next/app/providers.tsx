"use client"
// The client side of the session: gatehouse/react's SessionProvider (next-auth/react's API) under the auth basePath.
import type { ReactNode } from "react"
import type { Session } from "gatehouse/next"
import { SessionProvider } from "gatehouse/react"

export function Providers({ session, children }: { session: Session | null; children: ReactNode }) {
  return (
    <SessionProvider session={session} basePath="/api/auth">
      {children}
    </SessionProvider>
  )
}
