// Browser code type-checked by test/pack.test.ts against the installed tarball as a React app without Node's types
// would (lib dom + es2022, types [], skipLibCheck off): only gatehouse/client, gatehouse/react, gatehouse/v4/react,
// gatehouse/webauthn and gatehouse/solid-start/client.
import { getSession, signIn, signOut, subscribe, type Session, type SignInResponse } from "gatehouse/client"
import { SessionProvider, useSession } from "gatehouse/react"
import {
  getSession as v4GetSession,
  signIn as v4SignIn,
  signOut as v4SignOut,
  SessionProvider as V4SessionProvider,
  useSession as useV4Session,
  type SignInResponse as V4SignInResponse,
} from "gatehouse/v4/react"
import {
  configure as solidConfigure,
  signIn as solidSignIn,
  signOut as solidSignOut,
  type SignInResponse as SolidSignInResponse,
} from "gatehouse/solid-start/client"
import { browserSupportsWebAuthn, bufferToBase64URL, signIn as passkeySignIn } from "gatehouse/webauthn"

function Greeting() {
  const { data, status, update } = useSession({ required: true })
  const name: string | null | undefined = data?.user?.name
  return (
    <button type="button" onClick={() => void update({ name: "new" })}>
      {status === "authenticated" ? `Signed in as ${name ?? "someone"}` : "Loading"}
    </button>
  )
}

export function App(props: { session: Session | null }) {
  return (
    <SessionProvider session={props.session} basePath="/auth" refetchInterval={60}>
      <Greeting />
    </SessionProvider>
  )
}

export async function signInFlows(): Promise<string> {
  const answer: SignInResponse = await signIn("credentials", { redirect: false, username: "demo" })
  if (browserSupportsWebAuthn()) await passkeySignIn("passkey", { action: "authenticate", redirect: false })
  const stop = subscribe(() => undefined)
  stop()
  const session: Session | null = await getSession()
  await signOut({ redirectTo: "/" })
  return `${answer.ok} ${session?.expires ?? ""} ${bufferToBase64URL(new Uint8Array([1, 2]))}`
}

function V4Greeting() {
  const { data, status, update } = useV4Session({ required: true, onUnauthenticated: () => void v4SignIn() })
  return (
    <button type="button" onClick={() => void update({ name: "new" })}>
      {status === "authenticated" ? `Signed in as ${data.user?.name ?? "someone"}` : "Loading"}
    </button>
  )
}

export function V4App(props: { session: Session | null }) {
  return (
    <V4SessionProvider session={props.session} refetchInterval={60} refetchWhenOffline={false}>
      <V4Greeting />
    </V4SessionProvider>
  )
}

export async function v4Flows(): Promise<string> {
  const answer: V4SignInResponse | undefined = await v4SignIn("credentials", { redirect: false, username: "demo" })
  const session: Session | null = await v4GetSession({ broadcast: false })
  const out = await v4SignOut({ redirect: false, callbackUrl: "/" })
  return `${answer?.error ?? ""} ${session?.expires ?? ""} ${out.url}`
}

export async function solidStartFlows(): Promise<string> {
  solidConfigure({ basePath: "/api/auth" })
  const answer: SolidSignInResponse = await solidSignIn("credentials", { redirect: false, username: "demo" })
  await solidSignOut({ redirectTo: "/" })
  return `${answer.ok} ${answer.url ?? ""}`
}
