// The Edge runtime app (Vercel's edge-runtime, what Next.js runs middleware and edge routes in): a fetch-event
// handler, bundled as a script with the edge-light conditions. No process, no Buffer, no node:* there; the test
// defines RUNTIME_ENV before this code runs.
import type { AppEnv } from "./fixture.ts"
import { webHandler } from "./web-handler.ts"

interface FetchEventLike {
  request: Request
  respondWith(response: Promise<Response>): void
}

const scope = globalThis as unknown as {
  RUNTIME_ENV: AppEnv
  addEventListener(type: "fetch", listener: (event: FetchEventLike) => void): void
}

const handle = webHandler(scope.RUNTIME_ENV)
scope.addEventListener("fetch", (event) => event.respondWith(handle(event.request)))
