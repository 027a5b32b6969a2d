// The Next.js middleware steps of docs/migration.md are the ones the app tests build: the official example's
// middleware.ts on the Edge runtime (next-edge-app.test.ts and next15-app.test.ts build next-edge/middleware.ts) and
// Next 16's proxy.ts (next-app.test.ts builds examples/next/proxy.ts).
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const read = (path: string): string => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), "utf8")
const guide = read("docs/migration.md")
/** Code without comments and whitespace, with the module `auth.ts` named however the file names it. */
const compact = (code: string): string =>
  code
    .replace(/^\s*\/\/.*$/gm, "")
    .replace(/\s+/g, "")
    .replace(/"\.\/auth"|"@\/auth"|"auth"/g, "AUTH")
    .replace(/,([\]}])/g, "$1")

/** The text of the guide's bullet that starts with `**<label>**`, up to the next bullet of the same list. */
function bullet(label: string): string {
  const start = guide.indexOf(`- **${label}**`)
  if (start === -1) throw new Error(`docs/migration.md has no bullet "${label}"`)
  const next = guide.indexOf("\n   - **", start + 1)
  return guide.slice(start, next === -1 ? undefined : next)
}

describe("docs/migration.md, Next.js middleware steps", () => {
  it("middleware.ts: the file the guide shows is the one the Edge app tests build, with no runtime", () => {
    const step = bullet("Next 15 and 16, `middleware.ts`:")
    const code = /```ts\n([\s\S]*?)```/.exec(step)?.[1]
    expect(code, "the middleware.ts bullet has a ts code block").toBeDefined()
    const tested = read("test/integrations/next-edge/middleware.ts")
    expect(compact(code!)).toBe(compact(tested))
    expect(tested).not.toMatch(/runtime\s*:/)
  })

  it("Next 16: the guide's proxy.ts export is the one examples/next/proxy.ts has (and next-app.test.ts builds)", () => {
    const step = bullet("Next 16, `proxy.ts`:")
    const line = 'export { auth as proxy } from "./auth"'
    expect(step).toContain(`\`${line}\``)
    expect(compact(read("examples/next/proxy.ts"))).toContain(compact(line))
    const code = read("examples/next/proxy.ts").replace(/^\s*\/\/.*$/gm, "")
    const config = /export const config = \{[^}]*\}/.exec(code)?.[0]
    expect(config).toBeDefined()
    expect(config, "proxy.ts takes no runtime").not.toMatch(/runtime\s*:/)
  })

  it("the guide no longer sends Next.js apps to the Node.js runtime", () => {
    expect(guide).not.toMatch(/move it to Node\.js|needs the Node\.js runtime|Remove `export const runtime = "edge"`/)
  })
})
