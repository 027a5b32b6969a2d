// Type tests: published @auth adapters are Gatehouse adapters as they are, and so are Gatehouse's own.
import PgAdapter from "@auth/pg-adapter"
import { KyselyAdapter, type Database } from "@auth/kysely-adapter"
import type { Adapter as AuthJsAdapter } from "@auth/core/adapters"
import { Kysely, PostgresDialect } from "kysely"
import type pg from "pg"
import type { Adapter } from "gatehouse/adapters"
import { MemoryAdapter } from "gatehouse/adapters/memory"
import { PostgresAdapter } from "gatehouse/adapters/postgres"
import type { AuthConfig } from "gatehouse"

declare const pool: pg.Pool

// @auth adapters plug into a Gatehouse config unchanged.
export const fromPgAdapter: Adapter = PgAdapter(pool)
export const fromKysely: Adapter = KyselyAdapter(new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }))
export const config: AuthConfig = { providers: [], adapter: PgAdapter(pool) }

// And Gatehouse's adapters fit @auth/core's interface (switching back works too).
export const memoryForAuthJs: AuthJsAdapter = MemoryAdapter()
export const postgresForAuthJs: AuthJsAdapter = PostgresAdapter(pool)

// @ts-expect-error a method with the wrong shape is refused
export const broken: Adapter = { getUser: (id: number) => id }
