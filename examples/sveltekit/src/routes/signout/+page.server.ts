import { redirect } from "@sveltejs/kit"
import { signOut } from "../../auth"
import type { Actions, PageServerLoad } from "./$types"

// Signing out is a POST (the layout's form); a visit to /signout goes home.
export const load: PageServerLoad = () => redirect(303, "/")

export const actions: Actions = { default: signOut }
