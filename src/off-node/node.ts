// gatehouse/node off Node.js (package.json "exports": edge-light, workerd, worker, browser): importing it throws an
// AuthError that names the web front doors. Same export names as integrations/node.ts, whose types the entry keeps.
import { refuseOffNode } from "./refuse.js"

const unavailable: never = refuseOffNode(
  "gatehouse/node",
  "it serves node:http requests",
  'Answer web Requests with Auth(request, config) from "gatehouse", or use gatehouse/hono or gatehouse/next.',
)

export {
  unavailable as createAuthHandler,
  unavailable as createHandler,
  unavailable as getSession,
  unavailable as sendWebResponse,
  unavailable as toWebRequest,
}
