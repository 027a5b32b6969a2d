// The Node-only entries off Node.js. Under the workerd / worker / browser export conditions (as Wrangler and other
// bundlers for Workers and the Edge runtime resolve them) gatehouse/node, gatehouse/express and
// gatehouse/providers/nodemailer are src/off-node/ modules whose import throws an AuthError naming what works there,
// and gatehouse/providers/email is the same Email() without the SMTP send. Each entry is bundled from a one-line import
// with esbuild (platform neutral, so a node:* import would fail the build) and the bundle is imported. Under the "node"
// condition every one of them is still the real module, with the same export names.
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import { beforeAll, describe, expect, it } from "vitest"
import { ensureDist } from "../support/dist.js"

const ROOT = fileURLToPath(new URL("../../", import.meta.url))

const OFF_NODE = ["workerd", "worker", "browser"]

interface Bundled {
  code: string
  inputs: string[]
  exports: string[]
}

async function bundle(source: string, conditions: string[]): Promise<Bundled> {
  const result = await build({
    stdin: { contents: source, resolveDir: ROOT, sourcefile: "entry.js", loader: "js" },
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions,
    target: "es2022",
    metafile: true,
    logLevel: "silent",
    // Under "node" the real modules import node:* and their peer packages: left out, as the app would have them.
    external: conditions.includes("node") ? ["node:*", "express", "nodemailer"] : [],
    // The package's own "exports" and "imports" decide, not the repo's tsconfig paths (see runtime-kit.ts).
    tsconfigRaw: {},
  })
  const output = Object.values(result.metafile.outputs)[0]
  return {
    code: result.outputFiles[0]?.text ?? "",
    inputs: Object.keys(result.metafile.inputs),
    exports: [...(output?.exports ?? [])].sort(),
  }
}

/** Imports an ESM bundle (it imports nothing: everything is inside) from a data: URL. */
function load(code: string): Promise<Record<string, unknown>> {
  return import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`)
}

/** What loading a bundle threw, or undefined. */
async function loadFailure(code: string): Promise<{ name?: string; type?: string; message?: string } | undefined> {
  try {
    await load(code)
    return undefined
  } catch (error) {
    return error as { name?: string; type?: string; message?: string }
  }
}

const REFUSED = [
  {
    subpath: "gatehouse/node",
    real: "dist/integrations/node.js",
    off: "dist/off-node/node.js",
    names: [/Auth\(request, config\) from "gatehouse"/, /gatehouse\/hono/, /gatehouse\/next/],
  },
  {
    subpath: "gatehouse/express",
    real: "dist/integrations/express.js",
    off: "dist/off-node/express.js",
    names: [/Auth\(request, config\) from "gatehouse"/, /gatehouse\/hono/, /gatehouse\/next/],
  },
  {
    subpath: "gatehouse/providers/nodemailer",
    real: "dist/providers/nodemailer.js",
    off: "dist/off-node/nodemailer.js",
    names: [/gatehouse\/providers\/resend/, /sendgrid/, /postmark/, /mailgun/, /sendVerificationRequest/],
  },
] as const

beforeAll(() => ensureDist(), 600_000)

describe.each(REFUSED)("$subpath off Node.js", ({ subpath, real, off, names }) => {
  const source = `export * from "${subpath}"\n`

  it("throws an AuthError on import that names what to use instead", async () => {
    const bundled = await bundle(source, OFF_NODE)
    expect(bundled.inputs).toContain(off)
    expect(bundled.inputs).not.toContain(real)
    const failure = await loadFailure(bundled.code)
    expect(failure, "the import must throw").toBeDefined()
    expect(failure?.name).toBe("AuthError")
    expect(failure?.type).toBe("AuthError")
    expect(failure?.message).toContain(`${subpath} needs Node.js`)
    for (const name of names) expect(failure?.message).toMatch(name)
  })

  it('is the real module under the "node" condition, and both export the same names', async () => {
    const [onNode, offNode] = await Promise.all([bundle(source, ["node"]), bundle(source, OFF_NODE)])
    expect(onNode.inputs).toContain(real)
    expect(onNode.inputs.filter((input) => input.startsWith("dist/off-node/"))).toEqual([])
    expect(onNode.exports.length).toBeGreaterThan(0)
    expect(offNode.exports).toEqual(onNode.exports)
  })
})

describe("gatehouse/providers/email off Node.js", () => {
  const source = 'export * from "gatehouse/providers/email"\nexport { default } from "gatehouse/providers/email"\n'

  it("is Email() without the SMTP send: sendVerificationRequest works, `server` alone names the mail API providers", async () => {
    const bundled = await bundle(source, OFF_NODE)
    expect(bundled.inputs).toContain("dist/off-node/email.js")
    expect(bundled.inputs.filter((input) => /smtp-send|nodemailer/.test(input))).toEqual([])
    const mod = await load(bundled.code)
    const Email = mod.default as (config: object) => { id: string; type: string; sendVerificationRequest: unknown }
    const send = async (): Promise<void> => {}
    const provider = Email({ sendVerificationRequest: send })
    expect(provider).toMatchObject({ id: "email", type: "email", sendVerificationRequest: send })
    expect((mod.normalizeEmailAddress as (address: string) => string)("Ada@Example.COM")).toBe("ada@example.com")
    let failure: { name?: string; message?: string } | undefined
    try {
      Email({ server: "smtp://127.0.0.1:2525" })
    } catch (error) {
      failure = error as { name?: string; message?: string }
    }
    expect(failure?.name).toBe("AuthError")
    expect(failure?.message).toMatch(/needs Node\.js/)
    for (const name of [/gatehouse\/providers\/resend/, /sendgrid/, /postmark/, /sendVerificationRequest/])
      expect(failure?.message).toMatch(name)
  })

  it('is the real module with the SMTP send under the "node" condition, with the same export names', async () => {
    const [onNode, offNode] = await Promise.all([bundle(source, ["node"]), bundle(source, OFF_NODE)])
    expect(onNode.inputs).toContain("dist/providers/email.js")
    expect(onNode.inputs).toContain("dist/providers/smtp-send.js")
    expect(offNode.exports).toEqual(onNode.exports)
  })
})
