// The Deno app: Deno.serve on 127.0.0.1 with an OS-chosen port, run from source against dist/ (Deno resolves the
// package's exports and its #crypto import with the deno condition). Prints the URL the test waits for.
import type { AppEnv } from "./fixture.ts"
import { webHandler } from "./web-handler.ts"

declare const Deno: {
  env: { toObject(): Record<string, string> }
  serve(
    options: { hostname: string; port: number; onListen: (address: { hostname: string; port: number }) => void },
    handler: (request: Request) => Promise<Response>,
  ): unknown
}

const env = Deno.env.toObject() as unknown as AppEnv
Deno.serve(
  {
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ hostname, port }) => console.log(`listening on http://${hostname}:${port}`),
  },
  webHandler(env),
)
