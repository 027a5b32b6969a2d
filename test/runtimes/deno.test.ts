// Gatehouse in Deno: test/runtimes/apps/deno.ts run by the deno binary of the `deno` dev dependency, straight from
// source against dist/ (Deno resolves the package's exports through package.json and picks #crypto with its deno
// condition). Permissions: the network on 127.0.0.1 only (its own server, the local OP) and the environment.
import { describe } from "vitest"
import { ROOT, runtimeBinary, runtimeSuite, spawnApp } from "../support/runtime-kit.js"

describe("Deno", () => {
  runtimeSuite((env) => {
    const deno = runtimeBinary("deno", ["@deno/linux-x64-glibc/deno", "@deno/linux-arm64-glibc/deno"])
    return spawnApp(
      deno,
      ["run", "--no-lock", "--allow-net=127.0.0.1", "--allow-env", `${ROOT}test/runtimes/apps/deno.ts`],
      env,
    )
  })
})
