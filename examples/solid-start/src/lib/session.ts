// The session reads as router queries: run once per navigation, shared by the route's preload and its component.
import { query } from "@solidjs/router"
import { currentSession, signedInUser } from "./session-server"

export const getSessionQuery = query(currentSession, "session")
export const getSignedInUser = query(signedInUser, "signed-in-user")
