// `npm run bench` options: --help prints usage and exits without measuring; an unknown or malformed option is an error.
import { spawnSync } from "node:child_process"
import { describe, expect, it } from "vitest"
import { BenchOptionError, parseBenchOptions } from "../bench/options.js"

const tsx = (args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", "bench/run.ts", ...args], {
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env },
  })

describe("npm run bench options", () => {
  it("parses flags, numbers and optional values; refuses unknown, misspelled and malformed options", () => {
    expect([...parseBenchOptions(["--quick", "--rounds=5", "--dist"])]).toEqual([
      ["quick", "true"],
      ["rounds", "5"],
      ["dist", "true"],
    ])
    expect(parseBenchOptions(["--profile=G2"]).get("profile")).toBe("G2")
    for (const bad of [
      ["--quik"],
      ["quick"],
      ["--rounds"],
      ["--rounds=0"],
      ["--rounds=x"],
      ["--quick=1"],
      ["--toString"],
      ["--__proto__"],
    ]) {
      expect(() => parseBenchOptions(bad), bad.join(" ")).toThrow(BenchOptionError)
    }
  })

  it("--runtime takes node, edge, workerd, bun or deno; the Node bench's own options are refused beside another runtime", () => {
    for (const runtime of ["node", "edge", "workerd", "bun", "deno"])
      expect(parseBenchOptions([`--runtime=${runtime}`, "--quick", "--rounds=5"]).get("runtime")).toBe(runtime)
    expect(parseBenchOptions(["--runtime=workerd", "--dist=build"]).get("dist")).toBe("build")
    expect(parseBenchOptions(["--runtime=node", "--no-http"]).has("no-http")).toBe(true)
    for (const bad of [
      ["--runtime"],
      ["--runtime="],
      ["--runtime=firefox"],
      ["--runtime=Edge"],
      ["--runtime=edge", "--profile"],
      ["--runtime=bun", "--http-only"],
      ["--runtime=deno", "--no-http"],
      ["--busy-neighbor", "--runtime=workerd"],
    ]) {
      expect(() => parseBenchOptions(bad), bad.join(" ")).toThrow(BenchOptionError)
    }
    expect(() => parseBenchOptions(["--runtime=firefox"])).toThrow(/one of node, edge, workerd, bun, deno/)
    expect(() => parseBenchOptions(["--runtime=edge", "--profile=G2"])).toThrow(/--profile is for the Node bench only/)
  })

  it("--help prints the usage and exits 0 at once; a misspelled option exits 2 before anything is measured", () => {
    const help = tsx(["--help"])
    expect(help.status).toBe(0)
    expect(help.stdout).toContain("Usage: npm run bench")
    expect(help.stdout).toContain("--quick")
    expect(help.stdout).toMatch(/--runtime=X +node \(default\).* edge .* workerd .* bun, deno:/)
    expect(help.stderr).not.toContain("[round")
    const typo = tsx(["--quik"])
    expect(typo.status).toBe(2)
    expect(typo.stderr).toContain('unknown option "--quik"')
    expect(typo.stderr).not.toContain("[round")
  }, 120_000)
})
