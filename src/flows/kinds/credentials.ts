// The credentials kind: the app's `authorize` decides at POST /callback/<id> (flows/credentials.ts); its sign-in page
// form is the provider's declared fields.
import { CredentialsSignin, MissingAuthorize } from "../../errors.js"
import type { ResolvedProvider, SignInKind } from "../../pipeline-types.js"
import { autocompleteFor, fieldLabel, fieldsOf, isPasswordType, stringOr } from "../../pages/signin-fields.js"
import type { CredentialsConfig } from "../../providers/types.js"
import { normalizeIdentifier } from "../../rate-limit/sign-in-limit.js"
import { declaredCredentialFields, identifierFields, verifyCredentials } from "../credentials.js"
import { asConfigured, toSignInPage } from "./common.js"

/** The provider's declared fields, as the page reads them. */
const declared = (p: ResolvedProvider) => ("credentials" in p ? p.credentials : undefined)

export const credentialsKind: SignInKind = {
  label: "credentials",
  resolve(provider, { index }) {
    if (typeof (provider as CredentialsConfig).authorize !== "function")
      throw new MissingAuthorize(
        `providers[${index}] ("${provider.id}"): a credentials provider needs an \`authorize\` function.`,
      )
    return asConfigured(provider)
  },
  env: {},
  readsFields: (provider) => declaredCredentialFields(provider as CredentialsConfig),
  routes: {
    // Credentials sign in at the callback; POST /signin/<id> goes back to the page.
    signin: { csrf: true, start: toSignInPage },
    callback: {
      // POST only: a GET must never run `authorize` (docs/security.md CR-03). The only callback Auth.js checks CSRF on
      // (docs/wire-format.md §2.7), and the only one counted so that a success gives its attempt back.
      methods: ["POST"],
      csrf: true,
      rateLimit: {
        /**
         * The value of the provider's identifier field (flows/credentials.ts `identifierFields`: the first declared
         * field that is not a password), so a field `authorize` never sees cannot choose the key; with no declared
         * fields, `email` and `username` each count, so a junk value in one never frees the other.
         */
        identifiers(body, provider) {
          const out: string[] = []
          for (const field of identifierFields(provider as CredentialsConfig)) {
            const value = Object.hasOwn(body, field) ? normalizeIdentifier(body[field]) : undefined
            if (value !== undefined && !out.includes(value)) out.push(value)
          }
          return out
        },
        undoOnSuccess: true,
      },
      async finish(req, config, provider) {
        return { identity: await verifyCredentials(req, config, provider as CredentialsConfig), cookies: [] }
      },
    },
  },
  formAction: "callback",
  // `authorize` vouches for its user's id and nothing else; with JWT sessions no adapter is asked at all.
  linking: { user: "flow-id", withJwtSessions: false, toSignedInUser: false, keepsFlowUserId: false },
  reportsNewUser: false,
  refreshesAccessTokens: false,
  holdsAuthenticators: false,
  page: {
    place: "form",
    fields: (p, locale) =>
      fieldsOf(declared(p)).map(([name, spec]) => ({ name, spec, label: fieldLabel(name, spec, locale) })),
    /** A field whose autocomplete is `username` or `email` and that is neither a password nor a hidden field. */
    identifierField(p) {
      for (const [name, spec] of fieldsOf(declared(p))) {
        if (isPasswordType(spec) || stringOr(spec.type, "text").toLowerCase() === "hidden") continue
        const tokens = (autocompleteFor(name, spec) ?? "").toLowerCase().split(/\s+/)
        if (tokens.includes("username") || tokens.includes("email")) return name
      }
      return undefined
    },
    localName: (p, locale) => (p.name === "Credentials" ? locale.signIn.providerNames.credentials : undefined),
    failureCode: CredentialsSignin.pageCode,
  },
}
