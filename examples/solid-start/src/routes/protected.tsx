// A page for signed-in users only: signedInUser() redirects anyone else to the sign-in page.
import { createAsync, type RouteDefinition } from "@solidjs/router"
import { Show } from "solid-js"
import { getSignedInUser } from "../lib/session"

export const route = { preload: () => getSignedInUser() } satisfies RouteDefinition

export default function Protected() {
  const user = createAsync(() => getSignedInUser(), { deferStream: true })
  return (
    <main>
      <h1>Protected</h1>
      <Show when={user()}>{(signedIn) => <p data-testid="protected-user">Welcome, {signedIn().name}.</p>}</Show>
    </main>
  )
}
