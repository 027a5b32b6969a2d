// Root layout: the session read once on the server seeds the client SessionProvider, so useSession starts ready.
import type { ReactNode } from "react"
import { auth } from "@/auth"
import { Providers } from "./providers"

export const metadata = { title: "Gatehouse + Next.js" }

export default async function RootLayout({ children }: { children: ReactNode }) {
  const session = await auth()
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", maxWidth: 640, margin: "2rem auto", lineHeight: 1.5 }}>
        <nav style={{ display: "flex", gap: "1rem" }}>
          <a href="/">Home</a>
          <a href="/protected">Protected page</a>
          <a href="/api/me">/api/me</a>
        </nav>
        <Providers session={session}>{children}</Providers>
      </body>
    </html>
  )
}
