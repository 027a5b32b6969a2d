// Stress harness: the messages between the runner (parent) and the app server it forks (stress/lib/server.ts).

/** How the forked app server is configured. */
export interface AppOptions {
  /** Session strategy of the Gatehouse config. */
  strategy: "jwt" | "database"
  /** Where the adapter keeps its rows: none (JWT only), PGlite in the server process, or PostgreSQL at DATABASE_URL. */
  db: "none" | "pglite" | "postgres"
  /** pg Pool size (postgres only). */
  poolMax?: number
  /** The secret list, newest first (Gatehouse encrypts with the first, decrypts with any). */
  secrets: string[]
  /** The mock OP the "mock" OIDC provider points at (started by the runner). */
  op?: { issuer: string; clientId: string; clientSecret: string }
  /** AuthConfig.adapterTimeout in ms. */
  adapterTimeout?: number
  /** Put a TCP proxy between the pg Pool and PostgreSQL, so "dbDown" can cut the connection (R6). */
  proxyDb?: boolean
  /** session.updateAge in seconds. */
  updateAge?: number
  /** Add an e-mail provider "email" (default maxAge) whose links the runner takes with "takeMail" (needs a database). */
  email?: boolean
  /** Add the Passkey provider "passkey" (experimental.enableWebAuthn; needs a database). */
  webauthn?: boolean
}

/** Injected adapter behaviour (R5, R6): per adapter call, chosen at random. */
export interface FaultPlan {
  /** Share of calls that throw. */
  failRate: number
  /** Share of calls answered only after `slowMs` (the real call runs first). */
  slowRate: number
  slowMs: number
  /** Share of calls that never answer until `heal` (the adapter timeout must end the request). */
  hangRate: number
}

export interface ServerStats {
  /** Since the last resetStats. */
  cpuUserUs: number
  cpuSystemUs: number
  requests: number
  statuses: Record<string, number>
  /** Event-loop delay percentiles in ms (perf_hooks.monitorEventLoopDelay, 10 ms resolution sampling). */
  eldP50Ms: number
  eldP99Ms: number
  eldMaxMs: number
  rss: number
  heapUsed: number
  /** Active libuv handles (sockets, timers, servers) and open file descriptors. */
  handles: number
  fds: number
  unhandledRejections: number
  uncaughtExceptions: number
  /** Errors Gatehouse logged, by type (AdapterError, CallbackRouteError, ...). */
  loggedErrors: Record<string, number>
  /** pg Pool: time requests waited for a connection, and the longest queue seen (postgres only). */
  poolWaitP50Ms?: number
  poolWaitP99Ms?: number
  poolWaitMaxMs?: number
  poolMaxWaiting?: number
  /** Adapter calls by outcome under the fault plan. */
  faults: { calls: number; thrown: number; slowed: number; hung: number }
}

export interface Invariants {
  users: number
  accounts: number
  sessions: number
  sessionsWithoutUser: number
  accountsWithoutUser: number
  /** E-mails held by more than one user, and provider accounts linked more than once. */
  duplicateUsers: number
  duplicateAccounts: number
  /** Users made by an OAuth sign-in (e-mail @op.stress.test) with no account: half a sign-in left behind. */
  opUsersWithoutAccount: number
  opUsersWithoutAccountEmails: string[]
  /** Users per provider account id (for the R9 first-sign-in race). */
  usersOf?: Record<string, number>
}

export type Command =
  | { cmd: "stats" }
  | { cmd: "resetStats" }
  | { cmd: "gc" }
  | { cmd: "setSecrets"; secrets: string[] }
  /** Shifts this process's Date.now() so that it reads `atMs` now (null: the real clock). */
  | { cmd: "setClock"; atMs: number | null }
  | { cmd: "setFaults"; plan: FaultPlan | null }
  | { cmd: "dbDown" }
  | { cmd: "dbUp" }
  | { cmd: "invariants" }
  /** Creates `n` users, each with a database session row; returns their session tokens. */
  | { cmd: "seedSessions"; n: number }
  /** The last sign-in link mailed to `email` (removed once taken), or null. */
  | { cmd: "takeMail"; email: string }
  /** Rows per table: users, accounts, sessions, verification_token, authenticators. */
  | { cmd: "rowCounts" }
  | { cmd: "stop" }

export interface RowCounts {
  users: number
  accounts: number
  sessions: number
  verificationTokens: number
  authenticators: number
}

export type Request = Command & { id: number }
export type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string }
export type Ready = { ready: true; port: number; backend: string } | { ready: false; error: string }
