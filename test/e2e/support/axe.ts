// axe-core in the page under test: injects the engine's source as an inline script (read from the installed package,
// so nothing is fetched) and runs it; violations of impact serious or critical fail, each named with its targets.
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import type { Page } from "playwright-core"

const require = createRequire(import.meta.url)
let source: string | undefined

/** axe-core's browser build, read once per test file. */
function axeSource(): string {
  source ??= readFileSync(require.resolve("axe-core/axe.min.js"), "utf8")
  return source
}

/** One violation as axe reports it (the fields the report prints). */
export interface AxeViolation {
  id: string
  impact: string | null
  help: string
  helpUrl: string
  nodes: { target: unknown[]; failureSummary?: string }[]
}

/** Impacts that fail the check. */
const FAILING = new Set(["serious", "critical"])

/**
 * Runs axe on the page as it is now and answers the serious or critical violations (empty when there are none).
 * The source goes in through CDP's script evaluation (Playwright's addScriptTag with content would add an inline
 * <script> element, which a page CSP without 'unsafe-inline' refuses; evaluate is not subject to the page's CSP).
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === "object")
  if (!loaded) await page.evaluate(axeSource())
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }
    ).axe
    const result = await axe.run(document, { resultTypes: ["violations"] })
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }))
  })
  return violations.filter((v) => v.impact !== null && FAILING.has(v.impact))
}

/** A readable list: id (impact): help, then each target with axe's failure summary. */
export function formatViolations(violations: readonly AxeViolation[]): string {
  return violations
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} ${v.helpUrl}\n${v.nodes.map((n) => `    ${JSON.stringify(n.target)}: ${(n.failureSummary ?? "").replace(/\n/g, " ")}`).join("\n")}`,
    )
    .join("\n")
}

/** Fails (throws) when axe reports serious or critical violations on the page; `label` names the page in the message. */
export async function expectNoSeriousAxeViolations(page: Page, label: string): Promise<void> {
  const violations = await axeViolations(page)
  if (violations.length > 0)
    throw new Error(
      `axe: ${violations.length} serious/critical violation(s) on ${label}:\n${formatViolations(violations)}`,
    )
}
