// The home page: who is signed in, and the buttons that sign in (the built-in page) and out.
import { createAsync, type RouteDefinition } from "@solidjs/router"
import { signIn, signOut } from "gatehouse/solid-start/client"
import { Show } from "solid-js"
import { getSessionQuery } from "../lib/session"

export const route = { preload: () => getSessionQuery() } satisfies RouteDefinition

export default function Home() {
  const session = createAsync(() => getSessionQuery(), { deferStream: true })
  return (
    <main>
      <h1>Gatehouse + SolidStart</h1>
      <Show
        when={session()?.user}
        fallback={
          <>
            <p data-testid="session">Signed out</p>
            <button type="button" data-testid="sign-in" onClick={() => signIn()}>
              Sign in
            </button>
          </>
        }
      >
        {(user) => (
          <>
            <p data-testid="session">
              Signed in as {user().name} ({user().email})
            </p>
            <button type="button" data-testid="sign-out" onClick={() => signOut({ redirectTo: "/" })}>
              Sign out
            </button>
          </>
        )}
      </Show>
    </main>
  )
}
