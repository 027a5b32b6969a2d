// Stress harness: the mock OP (test/support/mock-op.ts) as the runs use it, and the app options that point at it.
import { type MockOp, startMockOp } from "../../test/support/mock-op.js"

export type { MockOp }

export async function startOp(): Promise<MockOp> {
  return startMockOp({ clientId: "stress-client" })
}

export function opOption(op: MockOp): { issuer: string; clientId: string; clientSecret: string } {
  return { issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret }
}
