// Headless Chromium for the e2e tests: Debian's /usr/bin/chromium driven by playwright-core. Missing Chromium skips
// the tests with a visible reason on a developer machine, and fails them in CI (CI set), where .ci/run installs it.
import { existsSync } from "node:fs"
import { chromium } from "playwright-core"
import type { Browser, BrowserContext, Page } from "playwright-core"

export const CHROMIUM_PATH = "/usr/bin/chromium"

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
]

/** Why the browser tests are skipped here, or undefined when they run (always in CI, where a missing browser fails). */
export const skipReason: string | undefined =
  existsSync(CHROMIUM_PATH) || process.env.CI
    ? undefined
    : `${CHROMIUM_PATH} not found (apt-get install chromium; CI installs it and fails without it)`

if (skipReason) console.warn(`[e2e] browser tests skipped: ${skipReason}`)

/** Launches Chromium; in CI a missing binary fails with what to do. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `${CHROMIUM_PATH} is missing: the browser tests need Debian's chromium (apt-get install chromium); .ci/run installs it.`,
    )
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS })
}

/** A page whose uncaught errors and console errors are collected, for tests to assert there were none. */
export async function openPage(context: BrowserContext, url: string, errors: string[]): Promise<Page> {
  const page = await context.newPage()
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`))
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`)
  })
  await page.goto(url)
  await page.waitForFunction(() => document.body.dataset.ready === "1")
  return page
}
