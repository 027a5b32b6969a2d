// The Next.js middleware steps of docs/migration.md are the ones the app tests build: Next 15's middleware.ts with
// runtime "nodejs" (next15-app.test.ts builds test/integrations/next15/middleware.ts) and Next 16's proxy.ts
// (next-app.test.ts builds examples/next/proxy.ts); the Edge-runtime error names the same fixes.
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { edgeRuntimeError } from "../../src/integrations/next/edge.js"

const read = (path: string): string => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), "utf8")
const guide = read("docs/migration.md")
const compact = (code: string): string => code.replace(/\s+/g, "").replace(/"\.\/auth"|"auth"/g, "AUTH")

/** The text of the guide's bullet that starts with `**<label>**`, up to the next bullet of the same list. */
function bullet(label: string): string {
  const start = guide.indexOf(`- **${label}**`)
  if (start === -1) throw new Error(`docs/migration.md has no bullet "${label}"`)
  const next = guide.indexOf("\n   - **", start + 1)
  return guide.slice(start, next === -1 ? undefined : next)
}

describe("docs/migration.md, Next.js middleware steps", () => {
  it("Next 15: the middleware.ts the guide shows is the one next15-app.test.ts builds (runtime nodejs)", () => {
    const step = bullet("Next 15.5 or later:")
    const code = /```ts\n([\s\S]*?)```/.exec(step)?.[1]
    expect(code, "the Next 15 bullet has a ts code block").toBeDefined()
    const tested = read("test/integrations/next15/middleware.ts")
    for (const line of ['export { auth as middleware } from "./auth"', 'runtime: "nodejs"']) {
      expect(compact(code!)).toContain(compact(line))
      expect(compact(tested)).toContain(compact(line))
    }
  })

  it("Next 16: the guide's proxy.ts export is the one examples/next/proxy.ts has (and next-app.test.ts builds)", () => {
    const step = bullet("Next 16:")
    const line = 'export { auth as proxy } from "./auth"'
    expect(step).toContain(`\`${line}\``)
    expect(compact(read("examples/next/proxy.ts"))).toContain(compact(line))
    const code = read("examples/next/proxy.ts").replace(/^\s*\/\/.*$/gm, "")
    const config = /export const config = \{[^}]*\}/.exec(code)?.[0]
    expect(config).toBeDefined()
    expect(config, "proxy.ts takes no runtime").not.toMatch(/runtime\s*:/)
  })

  it("the Edge-runtime error names both fixes, and the guide quotes its opening", () => {
    const message = edgeRuntimeError().message
    expect(message).toContain("use proxy.ts instead of middleware.ts")
    expect(message).toContain('runtime: "nodejs"')
    expect(guide).toContain(message.slice(0, message.indexOf(" (")))
  })
})
