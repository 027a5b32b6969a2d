// An API route that reads the session token itself: getToken decrypts the session cookie (or an
// `Authorization: Bearer` token) with NEXTAUTH_SECRET and resolves its claims, or null.
import { getToken } from "gatehouse/v4/jwt"
import type { NextApiRequest, NextApiResponse } from "next"

export default async function handler(req: NextApiRequest, res: NextApiResponse) {
  const token = await getToken({ req })
  if (!token) {
    res.status(401).json({ error: "No valid session token" })
    return
  }
  res.status(200).json({ sub: token.sub, name: token.name, email: token.email })
}
