// One case of bench/peers/callgrind.ts, run under `valgrind --tool=callgrind` from an esbuild bundle: sets the library
// up, runs `warmup` ops (JIT), calls os.getPriority() (callgrind zeroes its counters there), runs `ops` ops, calls
// os.hostname() (callgrind dumps there). The dump holds only the measured ops, every thread included.
import os from "node:os"
import { memoryAdapter } from "better-auth/adapters/memory"
import {
  authJsStyleFlow,
  authjs,
  betterAuthInstance,
  betterAuthSignIn,
  gatehouse,
  type Handler,
  memoryDb,
  ORIGIN,
  USER,
} from "./libs.js"

const [id = "", opsArg = "200", warmupArg = "300"] = process.argv.slice(2)
const get = (path: string, cookie?: string) =>
  new Request(`${ORIGIN}${path}`, cookie ? { headers: { cookie } } : undefined)
async function op(handle: Handler, request: Request, status: number, mustContain?: string) {
  const res = await handle(request)
  const text = await res.text()
  if (res.status !== status || (mustContain !== undefined && !text.includes(mustContain)))
    throw new Error(`${id}: bad response ${res.status}: ${text.slice(0, 120)}`)
}
const email = USER.email

async function setup(): Promise<() => Promise<unknown>> {
  const lib = id.split("-")[0]
  const what = id.split("-")[1]
  if (lib === "G" || lib === "A") {
    const h = lib === "G" ? gatehouse("plain") : authjs("plain")
    const flow = await authJsStyleFlow(h)
    if (what === "S") return () => op(h, get("/auth/session", flow.sessionCookie), 200, email)
    if (what === "N") return () => op(h, get("/auth/session"), 200, "null")
    if (what === "Ip") return () => op(h, flow.signInRequest(), 302)
    if (what === "O") return () => op(h, flow.signOutRequest(), 302)
  } else {
    const db = memoryDb()
    const auth = betterAuthInstance({ database: memoryAdapter(db), cookieCache: lib === "Bc", password: "plain" })
    const s = await betterAuthSignIn(auth)
    if (what === "S") return () => op(auth.handler, get("/api/auth/get-session", s.cookie), 200, email)
    if (what === "N") return () => op(auth.handler, get("/api/auth/get-session"), 200, "null")
    if (what === "Ip")
      return async () => {
        await op(auth.handler, s.signInRequest(), 200, email)
        db.session!.length = 0
      }
  }
  throw new Error(`unknown case ${id}`)
}

const fn = await setup()
for (let i = 0; i < Number(warmupArg); i++) await fn()
os.getPriority()
for (let i = 0; i < Number(opsArg); i++) await fn()
os.hostname()
