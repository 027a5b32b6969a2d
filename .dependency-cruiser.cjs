// dependency-cruiser rules for src/ (npm run lint:deps): no import cycle, type-only imports included, and the layer
// order of docs/architecture.md ("Layers and the import rule"): a module imports its own layer or the layers below.

/**
 * The server layers, top to bottom. Each regular expression matches its members exactly (a file placed in a lower
 * layer than its folder is named there and left out of the folder's pattern). A module may import modules of its own
 * layer and of the layers after it; no-circular keeps each layer acyclic inside.
 */
const LAYERS = [
  // What users call: Auth(), the node/express/hono/next front doors, gatehouse/authenticators, gatehouse/sessions.
  // off-node/: what the Node-only entries (node, express, the nodemailer and e-mail providers) resolve to elsewhere.
  ["front doors", "^src/(index|auth|authenticators|sessions)\\.ts$|^src/integrations/|^src/off-node/"],
  // handle() and its error stage (called only by the pipeline and Hono's front door).
  ["pipeline", "^src/pipeline\\.ts$|^src/response/error\\.ts$"],
  // config/oauth.ts is placed with the flows: it is the OAuth kind's provider normaliser (flows/kinds/oauth.ts).
  ["config", "^src/config/(?!oauth\\.ts$)"],
  ["request", "^src/request/"],
  ["router", "^src/router\\.ts$"],
  // The action handlers and the route table (actions/table.ts), which the request parser and the router read.
  ["actions", "^src/actions/"],
  // One file per sign-in kind, the kinds and their registry, the OAuth provider normaliser, and the sign-in rate limit,
  // which counts attempts by what each kind reads.
  ["flows", "^src/flows/|^src/config/oauth\\.ts$|^src/rate-limit/sign-in-limit\\.ts$"],
  // Called by the flows and the actions; they call the security checks and the protocols, never the reverse.
  ["account and session", "^src/(account|session)/"],
  ["protocols, providers and security", "^src/(protocols|security)/|^src/providers/(?!(types|ids)\\.ts$)"],
  ["jwt and pages", "^src/jwt/|^src/pages/(?!browser/|locales/types\\.ts$)"],
  ["response", "^src/response/(?!error\\.ts$)"],
  ["cookies", "^src/cookies/"],
  ["logger and events", "^src/(logger|events)\\.ts$"],
  // The shared types: internal (pipeline-types.ts), public (types.ts; infer.ts, the types read off a config), the provider
  // config shapes and the generated id unions, and the shape of a page locale (the sign-in kinds' page sections in
  // pipeline-types.ts name it).
  [
    "shared types",
    "^src/(pipeline-types|types|infer)\\.ts$|^src/providers/(types|ids)\\.ts$|^src/pages/locales/types\\.ts$",
  ],
  // Stores and adapters: interfaces and their implementations, which know nothing of the handler.
  ["adapters and stores", "^src/(adapters|stores)/|^src/rate-limit/(?!sign-in-limit\\.ts$)"],
  ["base", "^src/(errors|records|symbols)\\.ts$|^src/lib/"],
  // The crypto seam: the contract (seam.ts) and its two backends (#crypto resolves through tsconfig.json's paths).
  ["crypto", "^src/crypto/"],
]

/** Code that runs in the browser: gatehouse/client, /react, /webauthn and the sign-in page's scripts. */
const BROWSER = "^src/(client|react|webauthn)/|^src/pages/browser/"
/**
 * What browser code may import from the server side: the error classes, and for their types only types.ts and
 * records.ts (the leaf of public records and the ProviderType union, which imports nothing).
 */
const BROWSER_MAY_USE = "^src/(errors|types|records)\\.ts$"

const any = (patterns) => patterns.map((p) => `(?:${p})`).join("|")

const layerRules = LAYERS.slice(1).map(([name, path], index) => ({
  name: `layer: ${name}`,
  comment: `${name} imports only its own layer and those below it (${LAYERS.slice(index + 2)
    .map(([below]) => below)
    .join(", ")}); see docs/architecture.md`,
  severity: "error",
  from: { path },
  to: { path: any(LAYERS.slice(0, index + 1).map(([, above]) => above)) },
}))

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "An import cycle, type-only imports included: move the shared piece down (docs/architecture.md).",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: "layer: unplaced module",
      comment:
        "Every module of src/ belongs to a layer: add its path to LAYERS (or BROWSER) in .dependency-cruiser.cjs.",
      severity: "error",
      from: { path: "^src/", pathNot: any([...LAYERS.map(([, path]) => path), BROWSER]) },
      to: {},
    },
    {
      name: "layer: import of an unplaced module",
      comment:
        "Every module of src/ belongs to a layer: add its path to LAYERS (or BROWSER) in .dependency-cruiser.cjs.",
      severity: "error",
      from: {},
      to: { path: "^src/", pathNot: any([...LAYERS.map(([, path]) => path), BROWSER]) },
    },
    {
      name: "crypto: node:crypto outside the node backend",
      comment:
        "Crypto, randomness and binary encodings go through #crypto (docs/contributing.md#rule-14); only src/crypto/node.ts uses node:crypto.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/crypto/node\\.ts$" },
      to: { dependencyTypes: ["core"], path: "^(node:)?crypto$" },
    },
    {
      name: "browser: server import",
      comment: "Browser code (client, react, webauthn, pages/browser) imports no server code but the error classes.",
      severity: "error",
      from: { path: BROWSER },
      to: { path: "^src/", pathNot: any([BROWSER, BROWSER_MAY_USE]) },
    },
    {
      name: "browser: types.ts at run time",
      comment: "Browser code imports types.ts and records.ts for their types only (import type).",
      severity: "error",
      from: { path: BROWSER },
      to: { path: "^src/(types|records)\\.ts$", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "browser: imported by the server at run time",
      comment:
        "Server code takes only types from the browser folders (webauthn/types.ts); their code runs in the page.",
      severity: "error",
      from: { path: "^src/", pathNot: BROWSER },
      to: { path: BROWSER, dependencyTypesNot: ["type-only"] },
    },
  ],
  options: {
    // src/ only (and node:crypto, for the rule that keeps it in the node backend); unit tests may import anything.
    includeOnly: "^src/|^(node:)?crypto$",
    exclude: { path: "\\.test\\.ts$" },
    doNotFollow: { path: "node_modules" },
    // `import type` counts: a type-only cycle still ties the modules together.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".d.ts"],
    },
    cache: false,
  },
}
