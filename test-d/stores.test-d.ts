// Type tests: the shared stores accept the clients users already have (pg, PGlite, node-redis), and `store` takes any SharedStore.
import type { PGlite } from "@electric-sql/pglite"
import { createClient, createCluster } from "@redis/client"
import type pg from "pg"
import type { AuthConfig, SharedStore } from "gatehouse"
import type { SharedStore as FromStores } from "gatehouse/stores"
import { MemoryStore } from "gatehouse/stores/memory"
import { PostgresStore, migrate } from "gatehouse/stores/postgres"
import { RedisStore } from "gatehouse/stores/redis"
import { runStoreConformanceSuite } from "gatehouse/stores/testing"

declare const pool: pg.Pool
declare const client: pg.Client
declare const pglite: PGlite

export const memory: SharedStore = MemoryStore({ maxEntries: 100 })
export const onPool: FromStores = PostgresStore(pool)
export const onClient: SharedStore = PostgresStore(client)
export const onPGlite: SharedStore = PostgresStore(pglite)
export const migrated: Promise<{ created: string[]; existing: string[] }> = migrate(pool)
export const onRedis: SharedStore = RedisStore(createClient())
export const onCluster: SharedStore = RedisStore(createCluster({ rootNodes: [] }))
export const config: AuthConfig = { providers: [], store: RedisStore(createClient(), { api: "node-redis" }) }
export const own: AuthConfig = {
  providers: [],
  store: { claim: async () => true, get: async () => null, set: async () => {}, delete: async () => {} },
}
runStoreConformanceSuite({ name: "mine", store: () => own.store! })

export const badStore: SharedStore = {
  claim: async () => true,
  // @ts-expect-error a store's get must resolve to a string or null
  get: async () => 1,
  set: async () => {},
  delete: async () => {},
}
// @ts-expect-error the API is one of the two client families
RedisStore(createClient(), { api: "valkey" })
