// The home page: who is signed in, a credentials form and the OIDC button (useSignIn), and sign-out (useSignOut).
import { component$ } from "@builder.io/qwik"
import { Form } from "@builder.io/qwik-city"
import { useSession, useSignIn, useSignOut } from "./plugin@auth"

export default component$(() => {
  const session = useSession()
  const signIn = useSignIn()
  const signOut = useSignOut()
  const user = session.value?.user
  return (
    <main>
      <h1>Gatehouse with Qwik</h1>
      {user ? (
        <>
          <p data-testid="status">Signed in as {user.name ?? user.email}</p>
          <Form action={signOut} reloadDocument>
            <input type="hidden" name="redirectTo" value="/" />
            <button type="submit">Sign out</button>
          </Form>
        </>
      ) : (
        <>
          <p data-testid="status">Not signed in</p>
          <Form action={signIn} reloadDocument data-form="credentials">
            <input type="hidden" name="providerId" value="credentials" />
            <input type="hidden" name="options.redirectTo" value="/protected/" />
            <input name="options.username" placeholder="Username (demo)" />
            <input name="options.password" type="password" placeholder="Password (demo)" />
            <button type="submit">Sign in</button>
          </Form>
          <Form action={signIn} reloadDocument data-form="oidc">
            <input type="hidden" name="providerId" value="oidc" />
            <input type="hidden" name="options.redirectTo" value="/protected/" />
            <button type="submit">Sign in with Local OIDC</button>
          </Form>
        </>
      )}
      <p>
        <a href="/protected/">Protected page</a>
      </p>
    </main>
  )
})
