// The sign-in page's inline scripts as committed in scripts.generated.ts: current with their typed sources in
// pages/browser/ (a fresh esbuild run gives the same bytes), and safe to inline as classic scripts.
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { FORM_SCRIPT, PASSKEY_SCRIPT } from "./scripts.generated.js"

const ROOT = fileURLToPath(new URL("../../", import.meta.url))

describe("page scripts built from src/pages/browser/", () => {
  it("scripts.generated.ts is what scripts/build-page-scripts.mjs builds now (edit the sources, then run it)", () => {
    const run = spawnSync(process.execPath, ["scripts/build-page-scripts.mjs", "--check"], {
      cwd: ROOT,
      encoding: "utf8",
    })
    expect(run.stderr).toBe("")
    expect(run.status).toBe(0)
  })

  it("each is one strict IIFE of printable ASCII, with nothing that ends or opens an element early", () => {
    for (const script of [FORM_SCRIPT, PASSKEY_SCRIPT]) {
      expect(script).toMatch(/^"use strict";\(\(\)=>\{[\x20-\x7e]*\}\)\(\);$/)
      expect(script).not.toMatch(/<\/script|<script|<!--/i)
      expect(() => new Function(script)).not.toThrow()
    }
  })
})
