// The one list of actions: for each, the methods it answers, whether a provider id may follow it, and whether a GET renders a page.
// isAuthAction, the path parser, the router's method guard and the configuration-error page rule derive from it; it has
// exactly one entry per AuthAction (types.ts).
import type { AuthAction } from "../types.js"

type Method = "GET" | "POST"

/** What the handler allows for one action. */
export interface ActionRule {
  /** Methods of `/<action>`, and of `/<action>/<id>` unless `providerMethods` says otherwise. */
  readonly methods: readonly Method[]
  /** Whether `/<action>/<provider id>` is a route. */
  readonly takesProvider: boolean
  /**
   * Methods of `/<action>/<provider id>` when they differ. A provider's sign-in kind may narrow them further for its
   * providers (`methods` of the kind's route, flows/kinds/: the credentials and WebAuthn callbacks are POST only).
   */
  readonly providerMethods?: readonly Method[]
  /** A GET renders an HTML page: on a configuration error it shows the error page instead of 500 JSON. */
  readonly page: boolean
  /**
   * A GET changes state, so a HEAD is refused (405) instead of mirroring it: HEAD is a safe method (RFC 9110 §9.2.1),
   * and link checkers send it to sign-in links. Every other GET route answers a HEAD like the GET, without a body.
   */
  readonly refuseHead?: boolean
}

const GET = ["GET"] as const
const BOTH = ["GET", "POST"] as const

/** Every action the handler answers, keyed by the first path segment after `basePath` (docs/wire-format.md §2). */
export const actionTable = {
  providers: { methods: GET, takesProvider: false, page: false },
  session: { methods: BOTH, takesProvider: false, page: false },
  csrf: { methods: GET, takesProvider: false, page: false },
  signin: { methods: BOTH, takesProvider: true, providerMethods: ["POST"], page: true },
  signout: { methods: BOTH, takesProvider: false, page: true },
  callback: { methods: BOTH, takesProvider: true, page: false, refuseHead: true },
  "verify-request": { methods: GET, takesProvider: false, page: true },
  error: { methods: GET, takesProvider: false, page: true },
  "webauthn-options": { methods: GET, takesProvider: true, page: false },
} as const satisfies Record<AuthAction, ActionRule>

// Sets, not `in` or property reads: a path segment such as `__proto__` or `constructor` must never match.
const actionNames: ReadonlySet<string> = new Set(Object.keys(actionTable))

/** The actions a provider id may follow. */
export const actionsWithProvider: ReadonlySet<string> = new Set(
  (Object.keys(actionTable) as AuthAction[]).filter((action) => actionTable[action].takesProvider),
)

/** True when the string is one of the handler's actions (public in `gatehouse`, as in @auth/core). */
export function isAuthAction(action: string): action is AuthAction {
  return actionNames.has(action)
}

/** The rule of an action. */
export function actionRule(action: AuthAction): ActionRule {
  return actionTable[action]
}
