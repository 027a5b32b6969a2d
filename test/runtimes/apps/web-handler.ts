// The fetch handler of the Edge, Bun and Deno apps: Auth() under the base path, the app page elsewhere.
import { Auth } from "gatehouse"
import { appPage, authConfig } from "./app.ts"
import { type AppEnv, BASE_PATH } from "./fixture.ts"

export function webHandler(env: AppEnv): (request: Request) => Promise<Response> {
  const config = authConfig(env)
  return async (request) => {
    const { pathname } = new URL(request.url)
    return pathname === BASE_PATH || pathname.startsWith(`${BASE_PATH}/`) ? Auth(request, config) : appPage(request)
  }
}
