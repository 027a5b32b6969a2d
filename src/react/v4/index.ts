// Public `gatehouse/v4/react`: the API of next-auth 4's `next-auth/react` (SessionProvider, useSession, getSession,
// getCsrfToken, getProviders, signIn, signOut and their types) for apps moving from next-auth 4 by changing the import.
// The React parts come from a "use client" module; the helpers stay callable from server code (getSession({ req })).
export { getCsrfToken, getProviders, getSession, signIn, signOut } from "./client.js"
export { SessionContext, SessionProvider, useSession } from "./session-provider.js"
export type { Session } from "../../types.js"
export type {
  ClientSafeProvider,
  CtxOrReq,
  GetSessionParams,
  LiteralUnion,
  ProviderType,
  RedirectableProviderType,
  RequestLike,
  SessionContextValue,
  SessionProviderProps,
  SignInAuthorizationParams,
  SignInOptions,
  SignInResponse,
  SignOutParams,
  SignOutResponse,
  UpdateSession,
  UseSessionOptions,
} from "./types.js"
