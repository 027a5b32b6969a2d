// Per-file setup of the browser tests: bundle the pages, start the server, launch Chromium; and small page helpers.
import type { Browser, Page } from "playwright-core"
import { launchChromium } from "./chromium.js"
import { bundlePages, startServer } from "./server.js"
import type { E2EServer } from "./server.js"

export interface Harness {
  server: E2EServer
  browser: Browser
  close(): Promise<void>
}

/** Bundles `entries`, starts the server and the browser. */
export async function startHarness(entries: string[]): Promise<Harness> {
  const server = await startServer(await bundlePages(entries))
  let browser: Browser
  try {
    browser = await launchChromium()
  } catch (error) {
    await server.stop()
    throw error
  }
  return {
    server,
    browser,
    close: async () => {
      await browser.close()
      await server.stop()
    },
  }
}

/** Waits until the element `#id` shows exactly `text`; on timeout says what it showed instead. */
export async function waitForText(page: Page, id: string, text: string, timeout = 5_000): Promise<void> {
  try {
    await page.waitForFunction(([i, t]) => document.getElementById(i)?.textContent === t, [id, text] as const, {
      timeout,
    })
  } catch {
    const shown = await page.evaluate((i) => document.getElementById(i)?.textContent ?? "(no element)", id)
    throw new Error(
      `#${id} never showed ${JSON.stringify(text)} within ${timeout} ms; it shows ${JSON.stringify(shown)}`,
    )
  }
}

/** How many requests the server saw for a path (method and query ignored). */
export function requestsTo(server: E2EServer, path: string): number {
  return server.state.requests.filter((line) => line.split(" ")[1]?.split("?")[0] === path).length
}
