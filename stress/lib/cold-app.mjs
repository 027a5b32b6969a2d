// Stress harness (R10): the smallest Gatehouse app, started fresh to time a cold start. GATEHOUSE_BASE is the folder
// URL to load Gatehouse from (dist/ under plain node, or src/ under node --import tsx). Prints one JSON line when it
// listens: its port and how long the import and the start took, from process start.
import { createServer } from "node:http"

const base = process.env.GATEHOUSE_BASE
const { createAuthHandler } = await import(new URL("integrations/node.js", base).href)
const { default: Credentials } = await import(new URL("providers/credentials.js", base).href)
const importedMs = performance.now()
const handler = createAuthHandler({
  secret: process.env.COLD_SECRET,
  trustHost: true,
  basePath: "/auth",
  providers: [
    Credentials({
      credentials: { username: {}, password: {} },
      authorize: async (c) =>
        c.password === "pw" ? { id: String(c.username), email: `${String(c.username)}@stress.test` } : null,
    }),
  ],
})
const server = createServer((req, res) => void handler(req, res))
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port, importedMs, readyMs: performance.now() })}\n`)
})
process.on("disconnect", () => process.exit(0))
process.stdin.on("end", () => process.exit(0))
process.stdin.resume()
