// gatehouse/v4/adapters: next-auth 4's `next-auth/adapters` types. Its Adapter, AdapterUser, AdapterAccount,
// AdapterSession and VerificationToken are Gatehouse's own (src/adapters/index.ts), which take next-auth 4 adapters
// (@next-auth/prisma-adapter and the rest) as they are: the same fourteen methods, each optional, and more that
// only WebAuthn uses. Where they differ from v4's declarations is in docs/migration.md ("From next-auth v4").
export type {
  Adapter,
  AdapterAccount,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "../../adapters/index.js"
