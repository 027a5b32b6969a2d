// One cold start, run by bench/peers/cold.ts as `node bench/peers/cold-child.mjs <library> [cookie]` (plain node, no
// tsx, Gatehouse from the built dist/ as npm installs it): import the library, configure it, answer the first
// GET session, and print {importedMs, answeredMs} as milliseconds since this process started (performance.now(), whose
// origin is the process's start, so Node's own bootstrap is included, the same for every library).
const [lib, cookie] = process.argv.slice(2)
const SECRET = "k3Q9vZ2mT8rW5yB1nH6pL4xC7fD0sJaE"
const ORIGIN = "http://localhost:3000"
const user = { id: "user-1", name: "Bench User", email: "bench@example.com" }
let handle
let path = "/auth/session"
let importedMs
if (lib === "node") {
  // The floor: the same process, request and body read, no library.
  importedMs = performance.now()
  handle = async () => new Response(JSON.stringify({ user, expires: "2030-01-01T00:00:00.000Z" }))
} else if (lib === "gatehouse") {
  const [{ Auth }, { default: Credentials }] = await Promise.all([
    import("../../dist/index.js"),
    import("../../dist/providers/credentials.js"),
  ])
  importedMs = performance.now()
  const config = { secret: SECRET, trustHost: true, basePath: "/auth", providers: [Credentials({ authorize: async () => user })] }
  handle = (r) => Auth(r, config)
} else if (lib === "authjs") {
  const [{ Auth }, { default: Credentials }] = await Promise.all([
    import("@auth/core"),
    import("@auth/core/providers/credentials"),
  ])
  importedMs = performance.now()
  const config = { secret: SECRET, trustHost: true, basePath: "/auth", providers: [Credentials({ authorize: async () => user })] }
  handle = (r) => Auth(r, config)
} else if (lib === "better-auth") {
  const [{ betterAuth }, { memoryAdapter }] = await Promise.all([
    import("better-auth"),
    import("better-auth/adapters/memory"),
  ])
  importedMs = performance.now()
  const auth = betterAuth({
    secret: SECRET,
    baseURL: ORIGIN,
    database: memoryAdapter({ user: [], session: [], account: [], verification: [] }),
    emailAndPassword: { enabled: true },
    telemetry: { enabled: false },
  })
  handle = auth.handler
  path = "/api/auth/get-session"
} else throw new Error(`unknown library ${lib}`)
const res = await handle(new Request(`${ORIGIN}${path}`, cookie ? { headers: { cookie } } : undefined))
const body = await res.text()
const answeredMs = performance.now()
const expected = cookie || lib === "node" ? user.email : "null"
if (res.status !== 200 || !body.includes(expected)) throw new Error(`${lib}: ${res.status} ${body.slice(0, 100)}`)
process.stdout.write(`${JSON.stringify({ importedMs, answeredMs })}\n`)
