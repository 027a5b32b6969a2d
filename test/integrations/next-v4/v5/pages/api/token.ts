// getToken of gatehouse/jwt: the v5 session cookie (authjs.session-token), under the same secret.
import { getToken } from "gatehouse/jwt"
import type { NextApiRequest, NextApiResponse } from "next"

export default async function handler(req: NextApiRequest, res: NextApiResponse) {
  const token = await getToken({ req, secret: process.env.AUTH_SECRET ?? process.env.NEXTAUTH_SECRET })
  if (!token) {
    res.status(401).json({ error: "No valid session token" })
    return
  }
  res.status(200).json({ sub: token.sub, name: token.name, email: token.email })
}
