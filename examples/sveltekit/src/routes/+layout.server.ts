import type { LayoutServerLoad } from "./$types"

// The session, for every page: the signed-in user, or null.
export const load: LayoutServerLoad = async (event) => ({ session: await event.locals.auth() })
