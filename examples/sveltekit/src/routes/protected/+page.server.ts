import { redirect } from "@sveltejs/kit"
import type { PageServerLoad } from "./$types"

// Signed-out visitors are sent to the sign-in page, which brings them back here.
export const load: PageServerLoad = async (event) => {
  const session = await event.locals.auth()
  if (!session?.user) redirect(303, "/signin?redirectTo=/protected")
  return { user: session.user }
}
