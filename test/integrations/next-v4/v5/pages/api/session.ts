// An API route that reads the session with auth(req, res) instead of getServerSession(req, res, authOptions).
import type { NextApiRequest, NextApiResponse } from "next"
import { auth } from "../../auth"

export default async function handler(req: NextApiRequest, res: NextApiResponse) {
  const session = await auth(req, res)
  if (!session) {
    res.status(401).json({ error: "Not signed in" })
    return
  }
  res.status(200).json({ name: session.user.name, email: session.user.email, id: session.user.id })
}
