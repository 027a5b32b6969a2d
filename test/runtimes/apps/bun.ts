// The Bun app: Bun.serve on 127.0.0.1 with an OS-chosen port, run from source against dist/ (Bun resolves the
// package's exports and its #crypto import with the bun condition). Prints the URL the test waits for.
import type { AppEnv } from "./fixture.ts"
import { webHandler } from "./web-handler.ts"

declare const Bun: {
  env: Record<string, string | undefined>
  serve(options: { hostname: string; port: number; fetch: (request: Request) => Promise<Response> }): { url: URL }
}

const env = Bun.env as unknown as AppEnv
const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: webHandler(env) })
console.log(`listening on ${server.url.origin}`)
