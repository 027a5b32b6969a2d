// gatehouse/express off Node.js (package.json "exports": edge-light, workerd, worker, browser): importing it throws an
// AuthError that names the web front doors. Same export names as integrations/express.ts, whose types the entry keeps.
import { refuseOffNode } from "./refuse.js"

const unavailable: never = refuseOffNode(
  "gatehouse/express",
  "Express runs on node:http",
  'Answer web Requests with Auth(request, config) from "gatehouse", or use gatehouse/hono (Hono runs on Workers and Edge) or gatehouse/next.',
)

export {
  unavailable as AuthError,
  unavailable as CredentialsSignin,
  unavailable as ExpressAuth,
  unavailable as customFetch,
  unavailable as getSession,
}
