"use server"
// Server functions: they run on the server (also when the page calls them after hydration) and read the session
// from the request's cookies with getSession, as @auth/solid-start's docs do.
import { redirect } from "@solidjs/router"
import { getSession } from "gatehouse/solid-start"
import { getRequestEvent } from "solid-js/web"
import { authConfig } from "../auth"

/** The signed-in session, or null. */
export async function currentSession() {
  const event = getRequestEvent()
  return event ? await getSession(event.request, authConfig) : null
}

/** The signed-in user; anyone else is sent to the sign-in page, to come back to /protected. */
export async function signedInUser() {
  const event = getRequestEvent()
  const session = event ? await getSession(event.request, authConfig) : null
  if (session?.user) return session.user
  // An absolute URL, so that a page already running in the browser loads the sign-in page instead of routing to it.
  const signIn = new URL("/api/auth/signin", event?.request.url ?? "http://localhost")
  signIn.searchParams.set("callbackUrl", "/protected")
  throw redirect(signIn.href)
}
