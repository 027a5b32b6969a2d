// Behind the middleware (middleware.ts): a visitor without a session never gets here, but is sent to the sign-in
// page and back. The page itself only shows who is signed in.
import { useSession } from "gatehouse/v4/react"
import Link from "next/link"

export default function ProtectedPage() {
  const { data: session } = useSession()
  return (
    <main>
      <h1>Protected</h1>
      <p data-testid="protected">Only signed-in users see this page.</p>
      <p data-testid="protected-user">{session ? `Welcome, ${session.user.name}.` : "Loading…"}</p>
      <Link href="/">Home</Link>
    </main>
  )
}
