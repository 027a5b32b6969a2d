// Home: the session as a server component sees it (auth()), the client view (useSession), and sign-in/out forms
// that run as server actions (signIn/signOut from auth.ts).
import { redirect } from "next/navigation"
import { AuthError } from "gatehouse/next"
import { auth, signIn, signOut } from "@/auth"
import { ClientSession } from "./client-session"

export default async function Home({ searchParams }: { searchParams: Promise<{ error?: string }> }) {
  const session = await auth()
  const { error } = await searchParams
  return (
    <main>
      <h1>Gatehouse + Next.js</h1>
      <p data-testid="server-session">
        Server component (auth()):{" "}
        {session ? (
          <>
            signed in as <strong>{session.user?.name}</strong>
          </>
        ) : (
          <strong>signed out</strong>
        )}
      </p>
      <ClientSession />
      {error ? <p role="alert">Sign-in failed: {error}</p> : null}
      {session ? (
        <form
          action={async () => {
            "use server"
            await signOut({ redirectTo: "/" })
          }}
        >
          <button type="submit">Sign out (server action)</button>
        </form>
      ) : (
        <>
          <p>
            <a href="/api/auth/signin">Sign in</a> on the built-in page, or here with a server action. The demo user is{" "}
            <code>demo</code> / <code>demo</code>.
          </p>
          <form
            action={async (formData: FormData) => {
              "use server"
              try {
                await signIn("credentials", formData)
              } catch (caught) {
                // signIn redirects by throwing; only a failed sign-in is an AuthError.
                if (caught instanceof AuthError) redirect(`/?error=${caught.type}`)
                throw caught
              }
            }}
          >
            <input name="username" defaultValue="demo" aria-label="Username" />
            <input name="password" type="password" defaultValue="demo" aria-label="Password" />
            <input type="hidden" name="redirectTo" value="/protected" />
            <button type="submit">Sign in (server action)</button>
          </form>
        </>
      )}
    </main>
  )
}
