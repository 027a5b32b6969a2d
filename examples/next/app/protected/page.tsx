// Reached only with a session: proxy.ts sends signed-out visitors to the sign-in page first. The form changes the
// display name in the session with unstable_update, from a server action.
import { redirect } from "next/navigation"
import { auth, unstable_update } from "@/auth"

export default async function ProtectedPage() {
  const session = await auth()
  return (
    <main>
      <h1>Protected page</h1>
      <p data-testid="protected-user">Welcome, {session?.user?.name}.</p>
      <form
        action={async (formData: FormData) => {
          "use server"
          await unstable_update({ user: { name: String(formData.get("name") ?? "") } })
          redirect("/protected")
        }}
      >
        <input name="name" defaultValue={session?.user?.name ?? ""} aria-label="Display name" />
        <button type="submit">Change display name (unstable_update)</button>
      </form>
    </main>
  )
}
