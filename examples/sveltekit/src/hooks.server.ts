// Every request goes through the auth hook: it answers /auth/* itself and gives every other request locals.auth().
export { handle } from "./auth"
