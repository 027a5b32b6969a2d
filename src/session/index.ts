// The session strategies: JWT (session in the encrypted cookie) and database (a row reached through the adapter).
// resolveConfig picks one per config (config.sessionStrategy); the interface is SessionStrategy in pipeline-types.ts.
export { jwtStrategy } from "./jwt.js"
export { databaseStrategy } from "./database.js"
