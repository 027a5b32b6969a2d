// getServerSideProps reads the session with auth(context) instead of getServerSession(req, res, authOptions).
import type { GetServerSideProps } from "next"
import type { Session } from "gatehouse/next"
import Link from "next/link"
import { auth } from "../auth"

interface Props {
  session: Session | null
}

export const getServerSideProps: GetServerSideProps<Props> = async (context) => {
  return { props: { session: await auth(context) } }
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
