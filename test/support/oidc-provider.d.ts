// Minimal typings for the parts of `oidc-provider` v9 the test OP uses (the package ships no types and
// @types/oidc-provider is not installed).
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http"

  export interface KoaContextish {
    path: string
    method: string
    status: number
    type: string
    body: unknown
    headers: Record<string, string | string[] | undefined>
    oidc?: { body?: Record<string, unknown>; params?: Record<string, unknown>; client?: { clientId: string } }
  }

  export interface Interaction {
    uid: string
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> }
    params: Record<string, unknown>
    session?: { accountId?: string; uid?: string }
    grantId?: string
    lastSubmission?: Record<string, unknown>
    returnTo: string
  }

  export interface Grant {
    addOIDCScope(scope: string): void
    addOIDCClaims(claims: string[]): void
    addResourceScope(indicator: string, scope: string): void
    save(): Promise<string>
  }

  export interface Account {
    accountId: string
    claims(
      use: string,
      scope: string,
      claims: unknown,
      rejected: string[],
    ): Promise<Record<string, unknown>> | Record<string, unknown>
  }

  export type Configuration = Record<string, unknown>

  export class Provider {
    constructor(issuer: string, configuration?: Configuration)
    readonly issuer: string
    proxy: boolean
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    use(fn: (ctx: KoaContextish, next: () => Promise<void>) => Promise<void>): this
    on(event: string, listener: (...args: any[]) => void): this
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>
    Grant: {
      new (init: { accountId: string; clientId: string }): Grant
      find(id: string): Promise<Grant | undefined>
    }
  }
  export default Provider
}
