// Public `gatehouse/authenticators`: the server API behind an account page's passkey list: list a user's
// authenticators, and remove one (its WebAuthn account goes with it). Calls go through the config's adapter.
import { AdapterError, MissingAdapter, MissingAdapterMethods } from "./errors.js"
import type { AdapterAuthenticator } from "./adapters/index.js"
import type { GuardedAdapter } from "./adapters/guarded-adapter.js"
import { resolveConfig } from "./config/resolve.js"
import type { AuthConfig } from "./types.js"

/** One passkey or security key of a user, as an account page shows it. */
export interface AuthenticatorInfo {
  /** The credential id as stored (standard base64); pass it to {@link removeAuthenticator}. */
  credentialID: string
  /** The WebAuthn provider the credential signs in with (`passkey`, `webauthn`, ...), when its account row was found. */
  provider: string | undefined
  counter: number
  /** `multiDevice` (synced, e.g. iCloud Keychain) or `singleDevice` (a security key). */
  credentialDeviceType: string
  credentialBackedUp: boolean
  transports: string[]
}

function adapterOf(config: AuthConfig, needs: readonly string[]): GuardedAdapter {
  const adapter = resolveConfig(config).adapter
  if (!adapter) throw new MissingAdapter("Listing or removing authenticators needs the config's `adapter`.")
  const missing = needs.filter((m) => typeof (adapter.raw as Record<string, unknown>)[m] !== "function")
  if (missing.length)
    throw new MissingAdapterMethods(`The adapter lacks methods the authenticators API needs: ${missing.join(", ")}.`)
  return adapter
}

/** The ids of a config's providers whose accounts hold authenticators (WebAuthn), for finding a credential's account row. */
function webAuthnProviderIds(config: AuthConfig): string[] {
  const resolved = resolveConfig(config)
  return resolved.providerList.filter((p) => resolved.kindOf(p).holdsAuthenticators).map((p) => p.id)
}

async function providerOf(
  adapter: GuardedAdapter,
  authenticator: AdapterAuthenticator,
  ids: readonly string[],
): Promise<string | undefined> {
  for (const id of ids) if (await adapter.getAccount(authenticator.providerAccountId, id)) return id
  return undefined
}

/** Lists the authenticators of the user with this id (an empty list when there are none). */
export async function listAuthenticators(config: AuthConfig, userId: string): Promise<AuthenticatorInfo[]> {
  const adapter = adapterOf(config, ["listAuthenticatorsByUserId", "getAccount"])
  const ids = webAuthnProviderIds(config)
  const rows = await adapter.listAuthenticatorsByUserId(userId)
  return Promise.all(
    rows.map(async (row) => ({
      credentialID: row.credentialID,
      provider: await providerOf(adapter, row, ids),
      counter: Number(row.counter),
      credentialDeviceType: row.credentialDeviceType,
      credentialBackedUp: Boolean(row.credentialBackedUp),
      transports: row.transports ? row.transports.split(",") : [],
    })),
  )
}

/**
 * Removes one of the user's authenticators and unlinks its WebAuthn account, in one transaction when the adapter has
 * one. Resolves false (and changes nothing) when the user has no authenticator with that id, so a request naming
 * someone else's credential removes nothing. Whether a user may remove their last way to sign in is the app's decision.
 */
export async function removeAuthenticator(config: AuthConfig, userId: string, credentialID: string): Promise<boolean> {
  const adapter = adapterOf(config, ["getAuthenticator", "deleteAuthenticator", "getAccount", "unlinkAccount"])
  const ids = webAuthnProviderIds(config)
  const remove = async (a: GuardedAdapter): Promise<boolean> => {
    const found = await a.getAuthenticator(credentialID)
    if (!found || found.userId !== userId) return false
    const provider = await providerOf(a, found, ids)
    await a.deleteAuthenticator(found.credentialID)
    if (provider) await a.unlinkAccount({ provider, providerAccountId: found.providerAccountId })
    return true
  }
  try {
    return adapter.transaction ? await adapter.transaction(remove) : await remove(adapter)
  } catch (error) {
    if (error instanceof AdapterError) throw error
    throw new AdapterError("Removing the authenticator failed.", { cause: error })
  }
}
