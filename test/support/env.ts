// The auth-related environment variables (AUTH_URL, AUTH_SECRET, AUTH_TRUST_HOST, ...) isolated per test, so env
// defaults are tested without leaking into other tests.

const ENV_KEYS = [
  "AUTH_URL",
  "NEXTAUTH_URL",
  "AUTH_TRUST_HOST",
  "AUTH_SECRET",
  "AUTH_SECRET_1",
  "AUTH_SECRET_2",
  "AUTH_SECRET_3",
  "NEXTAUTH_SECRET",
  "AUTH_REDIRECT_PROXY_URL",
  "VERCEL",
  "CF_PAGES",
] as const

/** Removes the auth-related env vars and returns a function that restores them. */
export function isolateEnv(): () => void {
  const saved = new Map<string, string | undefined>()
  for (const k of ENV_KEYS) {
    saved.set(k, process.env[k])
    delete process.env[k]
  }
  return () => {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
    }
  }
}

/** Runs `fn` with the given env vars set (others from ENV_KEYS cleared), then restores the env. */
export async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const restore = isolateEnv()
  try {
    Object.assign(process.env, vars)
    return await fn()
  } finally {
    for (const k of Object.keys(vars)) delete process.env[k]
    restore()
  }
}
