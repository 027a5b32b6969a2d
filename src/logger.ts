// The logger: user-supplied levels, else console; `debug` only when enabled. Messages never carry tokens or secrets.
import type { LoggerInstance } from "./types.js"

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

const defaultLogger: LoggerInstance = {
  error(error) {
    console.error(`${red}[gatehouse][error]${reset} ${describeError(error)}`)
  },
  warn(code) {
    console.warn(`${yellow}[gatehouse][warn]${reset} ${code}`)
  },
  debug(message, metadata) {
    console.log(`${grey}[gatehouse][debug]:${reset} ${message}`, metadata === undefined ? "" : JSON.stringify(metadata, null, 2))
  },
}

const noop = (): void => {}

/** Builds the logger for a config: its own levels win, the rest fall back to the console; debug is off unless `debug`. */
export function createLogger(config: { logger?: Partial<LoggerInstance>; debug?: boolean }): LoggerInstance {
  const custom = config.logger
  if (custom) {
    return {
      error: custom.error ? custom.error.bind(custom) : defaultLogger.error,
      warn: custom.warn ? custom.warn.bind(custom) : defaultLogger.warn,
      debug: custom.debug ? custom.debug.bind(custom) : noop,
    }
  }
  return { error: defaultLogger.error, warn: defaultLogger.warn, debug: config.debug ? defaultLogger.debug : noop }
}
