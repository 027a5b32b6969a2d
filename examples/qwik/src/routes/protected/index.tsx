// A page for signed-in users only: onRequest sends everyone else to the sign-in page, and back here afterwards.
import { component$ } from "@builder.io/qwik"
import type { RequestHandler } from "@builder.io/qwik-city"
import type { Session } from "gatehouse/qwik"
import { useSession } from "../plugin@auth"

export const onRequest: RequestHandler = (event) => {
  const session = event.sharedMap.get("session") as Session | null
  if (!session) throw event.redirect(302, `/auth/signin?${new URLSearchParams({ callbackUrl: event.url.href })}`)
}

export default component$(() => {
  const session = useSession()
  return (
    <main>
      <h1>Protected</h1>
      <p data-testid="user">
        {session.value?.user?.name} ({session.value?.user?.email})
      </p>
      <a href="/">Home</a>
    </main>
  )
})
