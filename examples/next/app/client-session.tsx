"use client"
// A client component that follows the session with useSession (status: loading, authenticated, unauthenticated).
import { useSession } from "gatehouse/react"

export function ClientSession() {
  const { data, status } = useSession()
  return (
    <p data-testid="client-session">
      Client component (useSession): <strong>{status}</strong>
      {data?.user?.name ? (
        <>
          {" "}
          as <span data-testid="client-name">{data.user.name}</span>
        </>
      ) : null}
    </p>
  )
}
