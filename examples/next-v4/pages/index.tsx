// The home page follows the session in the browser with useSession, and signs in and out with signIn/signOut:
// to the built-in sign-in page, with the credentials form below (redirect: false, so the page stays), and out.
import { signIn, signOut, useSession } from "gatehouse/v4/react"
import Link from "next/link"
import { type FormEvent, useState } from "react"

export default function Home() {
  const { data: session, status } = useSession()
  const [error, setError] = useState<string | null>(null)

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const result = await signIn("credentials", {
      username: String(form.get("username")),
      password: String(form.get("password")),
      redirect: false,
    })
    setError(result?.ok ? null : (result?.error ?? "unknown"))
  }

  return (
    <main>
      <h1>next-auth v4 app on Gatehouse</h1>
      <p data-testid="client-session">
        useSession: {status}
        {session ? ` as ${session.user.name} (id ${session.user.id})` : null}
      </p>
      {session ? (
        <button type="button" onClick={() => signOut({ callbackUrl: "/" })}>
          Sign out
        </button>
      ) : (
        <>
          <button type="button" onClick={() => signIn()}>
            Sign in
          </button>
          <form onSubmit={onSubmit}>
            <input name="username" placeholder="Username" autoComplete="username" />
            <input name="password" type="password" placeholder="Password" autoComplete="current-password" />
            <button type="submit">Sign in here</button>
          </form>
          {error ? <p data-testid="signin-error">Sign-in failed: {error}</p> : null}
        </>
      )}
      <ul>
        <li>
          <Link href="/server">Server-rendered page (getServerSession in getServerSideProps)</Link>
        </li>
        <li>
          <Link href="/protected">Protected page (middleware)</Link>
        </li>
        <li>
          <a href="/api/session">/api/session</a> (getServerSession in an API route)
        </li>
        <li>
          <a href="/api/token">/api/token</a> (getToken in an API route)
        </li>
      </ul>
    </main>
  )
}
