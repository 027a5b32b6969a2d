// An API route that reads the session on the server: getServerSession(req, res, authOptions) (null when signed
// out; the renewed session cookie goes on `res`).
import { getServerSession } from "gatehouse/v4/next"
import type { NextApiRequest, NextApiResponse } from "next"
import { authOptions } from "./auth/[...nextauth]"

export default async function handler(req: NextApiRequest, res: NextApiResponse) {
  const session = await getServerSession(req, res, authOptions)
  if (!session) {
    res.status(401).json({ error: "Not signed in" })
    return
  }
  res.status(200).json({ name: session.user.name, email: session.user.email, id: session.user.id })
}
