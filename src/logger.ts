// The logger: user-supplied levels, else console; `debug` only when enabled. Messages never carry tokens or secrets.
import type { LoggerInstance, WarningCode } from "./types.js"

const red = "\x1b[31m"
const yellow = "\x1b[33m"
const grey = "\x1b[90m"
const reset = "\x1b[0m"

function describeError(error: Error): string {
  const type = (error as { type?: unknown }).type
  const name = typeof type === "string" ? type : error.name
  let line = `${name}: ${error.message}`
  const cause = error.cause
  if (cause instanceof Error) line += `\n  caused by ${cause.name}: ${cause.message}`
  return line
}

/** What to do about a Gatehouse warning whose code alone does not say it (printed by the console logger only). */
const warningHints: Partial<Record<WarningCode, string>> = {
  "rate-limit-proxy-untrusted":
    "a proxy in front sends X-Forwarded-For, but rateLimit.clientAddress is not set: client addresses are unknown and sign-in " +
    'attempts are limited per identifier only. Set rateLimit.clientAddress (docs/rate-limit.md, "Behind a proxy").',
  "session-cookie-size":
    "the session cookie passed session.cookieBudget; browsers and proxies (nginx: 8 KB of headers by default) may refuse " +
    'it. The largest claims are named below: keep provider tokens out of the token (session.tokens: "server") or trim ' +
    'what the jwt callback adds (docs/guide.md, "Cookie budget").',
  "email-link-origin-missing":
    "e-mail sign-in is refused until its links have a configured origin: set AUTH_URL=https://your.app/auth, or list the " +
    "origin in trustedOrigins (docs/providers/email.md).",
}

/** The hint of a warning code: a fixed one, or the retired short secret's, which names its index. */
function hintOf(code: WarningCode): string | undefined {
  const short = /^secret-(\d+)-short$/.exec(code)
  if (short)
    return (
      `secret[${short[1]}] is shorter than 32 characters. It is only used to read cookies and links made under it ` +
      "(new ones use secret[0]); remove it from the list once session.maxAge has passed since you stopped signing with it."
    )
  return warningHints[code]
}

const defaultLogger: LoggerInstance = {
  error(error) {
    console.error(`${red}[gatehouse][error]${reset} ${describeError(error)}`)
  },
  warn(code, metadata) {
    const hint = hintOf(code)
    console.warn(
      `${yellow}[gatehouse][warn]${reset} ${code}${hint ? `: ${hint}` : ""}`,
      ...(metadata === undefined ? [] : [JSON.stringify(metadata)]),
    )
  },
  debug(message, metadata) {
    console.log(
      `${grey}[gatehouse][debug]:${reset} ${message}`,
      metadata === undefined ? "" : JSON.stringify(metadata, null, 2),
    )
  },
}

const noop = (): void => {}

/** The provider a failed request named, kept beside the error logged for it (next-auth 4's logger reports it). */
const errorProviders = new WeakMap<Error, string>()

/** Notes which provider's request an error ended (the pipeline, before it logs the error). */
export function noteErrorProvider(error: Error, providerId: string): void {
  errorProviders.set(error, providerId)
}

/** The provider id noted for an error, if its request named one. */
export function errorProviderOf(error: Error): string | undefined {
  return errorProviders.get(error)
}

function redactText(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of secrets) if (secret && out.includes(secret)) out = out.split(secret).join("[redacted]")
  return out
}

/**
 * Removes the configured secrets from an error's message and its cause's message before it is logged:
 * a user callback may throw a message that quotes its config.
 */
function redactError(error: Error, secrets: readonly string[]): Error {
  if (secrets.length === 0) return error
  if (secrets.some((s) => s && error.message.includes(s))) error.message = redactText(error.message, secrets)
  const cause = error.cause
  if (
    cause instanceof Error &&
    secrets.some((s) => s && (cause.message.includes(s) || (cause.stack ?? "").includes(s)))
  ) {
    const clean = new Error(redactText(cause.message, secrets))
    clean.name = cause.name
    Object.defineProperty(error, "cause", { value: clean, configurable: true, writable: true })
  } else if (typeof cause === "string" && secrets.some((s) => s && cause.includes(s))) {
    Object.defineProperty(error, "cause", { value: redactText(cause, secrets), configurable: true, writable: true })
  }
  if (error.stack && secrets.some((s) => s && error.stack?.includes(s))) error.stack = redactText(error.stack, secrets)
  return error
}

/**
 * Builds the logger for a config: its own levels win, the rest fall back to the console; debug is off
 * unless `debug`. Errors pass through `redactError` so no configured secret reaches a log.
 */
export function createLogger(
  config: { logger?: Partial<LoggerInstance>; debug?: boolean },
  secrets: readonly string[] = [],
): LoggerInstance {
  const custom = config.logger
  const error = custom?.error ? custom.error.bind(custom) : defaultLogger.error
  const debug = custom ? (custom.debug ? custom.debug.bind(custom) : noop) : config.debug ? defaultLogger.debug : noop
  return {
    error: (e) => error(redactError(e, secrets)),
    warn: custom?.warn ? custom.warn.bind(custom) : defaultLogger.warn,
    debug,
  }
}
