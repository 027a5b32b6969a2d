import { fail } from "@sveltejs/kit"
import { CredentialsSignin } from "gatehouse/sveltekit"
import { oidcConfigured, signIn } from "../../auth"
import type { Actions, PageServerLoad } from "./$types"

/** What a failed sign-in came back with (?error=, from the OpenID Provider's leg), in words. */
const ERRORS: Record<string, string> = {
  OAuthSignin: "The sign-in with your provider could not start.",
  OAuthCallbackError: "Your provider refused the sign-in.",
  AccessDenied: "You may not sign in.",
}

export const load: PageServerLoad = ({ url }) => {
  const error = url.searchParams.get("error")
  return {
    oidcConfigured,
    redirectTo: url.searchParams.get("redirectTo") ?? "/",
    error: error ? (ERRORS[error] ?? "The sign-in failed.") : null,
  }
}

export const actions: Actions = {
  // The form posts providerId, redirectTo and the provider's own fields (username, password). A signed-in user is
  // redirected (signIn throws SvelteKit's redirect); a wrong username or password is the form again, with the reason.
  default: async (event) => {
    try {
      await signIn(event)
    } catch (error) {
      if (error instanceof CredentialsSignin) return fail(400, { error: "Wrong username or password." })
      throw error
    }
  },
}
