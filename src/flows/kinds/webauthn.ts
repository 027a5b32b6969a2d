// The WebAuthn (passkey) kind: GET /webauthn-options/<id> starts the browser ceremony, POST /callback/<id> verifies
// its answer (flows/webauthn.ts); an adapter stores users, accounts and authenticators; experimental, as in Auth.js.
import { DuplicateConditionalUI, MissingWebAuthnAutocomplete } from "../../errors.js"
import type { FieldSpec, ResolvedProvider, SignInKind } from "../../pipeline-types.js"
import { fieldLabel, fieldsOf } from "../../pages/signin-fields.js"
import type { WebAuthnConfig } from "../../providers/webauthn.js"
import { clearChecks } from "../../security/check-cookies.js"
import { finishWebAuthn, webAuthnOptions } from "../webauthn.js"
import { asConfigured, toSignInPage } from "./common.js"

/** Auth.js's default `formFields` of the WebAuthn/Passkey providers: the field a new passkey is registered under. */
const DEFAULT_PASSKEY_FIELDS: Readonly<Record<string, FieldSpec>> = {
  email: { autocomplete: "username webauthn", required: true },
}

const isConditional = (p: ResolvedProvider) => "enableConditionalUI" in p && p.enableConditionalUI === true

export const webAuthnKind: SignInKind = {
  label: "WebAuthn",
  resolve: (provider) => asConfigured(provider),
  env: {},
  experimental: "enableWebAuthn",
  // Auth.js's list, plus the lookups account linking makes for a sign-up (docs/wire-format.md §9).
  adapter: {
    methods: [
      "createUser",
      "getUser",
      "getUserByEmail",
      "getUserByAccount",
      "linkAccount",
      "getAccount",
      "getAuthenticator",
      "createAuthenticator",
      "listAuthenticatorsByUserId",
      "updateAuthenticatorCounter",
    ],
    purpose: "to store users, accounts and authenticators",
  },
  /** At most one provider may offer autofill, and its form must ask for it. */
  checkProviders(providers) {
    const conditional = (providers as readonly Readonly<WebAuthnConfig>[]).filter((p) => p.enableConditionalUI)
    if (conditional.length > 1) {
      return new DuplicateConditionalUI(
        `Only one WebAuthn provider may set enableConditionalUI; ${conditional.map((p) => `"${p.id}"`).join(" and ")} both do.`,
      )
    }
    const autofill = conditional[0]
    if (
      autofill &&
      !Object.values(autofill.formFields ?? {}).some(
        (f) => typeof f?.autocomplete === "string" && f.autocomplete.split(/\s+/).includes("webauthn"),
      )
    ) {
      return new MissingWebAuthnAutocomplete(
        `The WebAuthn provider "${autofill.id}" enables conditional UI, so one of its formFields needs "webauthn" in its autocomplete (as "username webauthn").`,
      )
    }
    return undefined
  },
  routes: {
    // The ceremony runs in the browser; POST /signin/<id> goes back to the page that runs it.
    signin: { csrf: true, start: toSignInPage },
    callback: {
      methods: ["POST"],
      // Stricter than Auth.js (which checks none here): the callback is a form POST that signs in, so it carries the
      // CSRF token.
      csrf: true,
      async finish(req, config, provider) {
        // The challenge cookie is cleared by the response (success or error), with the other check cookies.
        return {
          identity: (await finishWebAuthn(req, config, provider as Readonly<WebAuthnConfig>)).identity,
          cookies: clearChecks(req, config),
        }
      },
    },
    "webauthn-options": {
      csrf: false,
      options: (req, config, provider) => webAuthnOptions(req, config, provider as Readonly<WebAuthnConfig>),
    },
  },
  // A plain form POST cannot run the ceremony: /signin/<id> sends it to the page that can.
  formAction: "signin",
  // A sign-up's user takes the id its credential's user handle names.
  linking: { user: "account", withJwtSessions: true, toSignedInUser: true, keepsFlowUserId: true },
  reportsNewUser: true,
  refreshesAccessTokens: false,
  holdsAuthenticators: true,
  page: {
    place: "passkey",
    /** The registration form's fields: `formFields`, else Auth.js's default e-mail field. */
    fields(p, locale) {
      const configured = "formFields" in p ? p.formFields : undefined
      const fields = fieldsOf(
        typeof configured === "object" && configured !== null ? configured : DEFAULT_PASSKEY_FIELDS,
      )
      return fields.map(([name, spec]) => ({ name, spec, label: fieldLabel(name, spec, locale, true) }))
    },
    conditionalUI: isConditional,
  },
}
