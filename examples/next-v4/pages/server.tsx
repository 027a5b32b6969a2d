// A server-rendered page: getServerSideProps reads the session with getServerSession(req, res, authOptions), which
// also renews the session cookie on the response, and hands it to the page and to SessionProvider (pages/_app.tsx).
import type { Session } from "gatehouse/v4"
import { getServerSession } from "gatehouse/v4"
import type { GetServerSideProps } from "next"
import Link from "next/link"
import { authOptions } from "./api/auth/[...nextauth]"

interface Props {
  session: Session | null
}

export const getServerSideProps: GetServerSideProps<Props> = async (context) => {
  return { props: { session: await getServerSession(context.req, context.res, authOptions) } }
}

export default function ServerPage({ session }: Props) {
  return (
    <main>
      <h1>Server-rendered</h1>
      <p data-testid="server-session">
        getServerSideProps: {session ? `signed in as ${session.user.name} (${session.user.email})` : "signed out"}
      </p>
      <Link href="/">Home</Link>
    </main>
  )
}
