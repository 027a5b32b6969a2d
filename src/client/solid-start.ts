// Public `gatehouse/solid-start/client`: @auth/solid-start/client's signIn and signOut, which are gatehouse/client's
// (the same requests, answers and redirects); `configure({ basePath })` points them at a route file outside /api/auth.
export { configure, signIn, signOut } from "./index.js"
export type {
  ClientConfig,
  SignInAuthorizationParams,
  SignInOptions,
  SignInResponse,
  SignOutParams,
  SignOutResponse,
} from "./index.js"
