// The e-mail (magic link) kind: POST /signin/<id> mails the link, GET /callback/<id> is its click (flows/email.ts);
// an adapter stores the tokens; its sign-in page form asks for the address.
import { EmailSignInError, InvalidProvider } from "../../errors.js"
import { authorizeSignIn } from "../../account/link.js"
import type { SignInKind } from "../../pipeline-types.js"
import { readEnv } from "../../lib/env.js"
import type { EmailConfig } from "../../providers/types.js"
import { normalizeIdentifier } from "../../rate-limit/sign-in-limit.js"
import { asEmailProvider, finishEmail, normalize, startEmail } from "../email.js"
import { asConfigured } from "./common.js"

export const emailKind: SignInKind = {
  label: "email",
  resolve(provider, { index }) {
    if (typeof (provider as EmailConfig).sendVerificationRequest !== "function")
      throw new InvalidProvider(
        `providers[${index}] ("${provider.id}"): an email provider needs a \`sendVerificationRequest\` function.`,
      )
    // The API key may come from AUTH_<ID>_KEY, as OAuth client ids come from AUTH_<ID>_ID.
    const envKey =
      (provider as EmailConfig).apiKey === undefined
        ? readEnv(`AUTH_${provider.id.toUpperCase().replace(/-/g, "_")}_KEY`)
        : undefined
    return asConfigured(provider, envKey ? { apiKey: envKey } : undefined)
  },
  env: { apiKey: "KEY" },
  // Checked per config: another config's e-mail provider never makes this one need an adapter (unlike Auth.js).
  // The token pair, and the user lookups and writes of the click (docs/wire-format.md §8.4).
  adapter: {
    methods: ["createVerificationToken", "useVerificationToken", "getUserByEmail", "createUser", "updateUser"],
    purpose: "to store verification tokens",
  },
  // Mailed links are built only from AUTH_URL or a trusted origin (docs/security.md EM-11): say so once, not per refusal.
  warning: ({ canonicalUrl, trustedOrigins }) =>
    !canonicalUrl && trustedOrigins.length === 0 ? "email-link-origin-missing" : undefined,
  routes: {
    signin: {
      csrf: true,
      rateLimit: {
        /** The address the flow will mail to (the provider's normaliser); one it refuses is counted by its plain form. */
        identifiers(body, provider) {
          let address: string | undefined
          try {
            address = normalize(asEmailProvider(provider), body.email)
          } catch {
            address = normalizeIdentifier(body.email)
          }
          return address === undefined ? [] : [address]
        },
        // Every request counts: each one may send a mail.
        undoOnSuccess: false,
      },
      async start(req, config, provider) {
        // The signIn callback decides before anything is stored or sent (docs/wire-format.md §8.1 step 2).
        const start = await startEmail(req, config, asEmailProvider(provider))
        const redirectTo = await authorizeSignIn(start.identity, req, config, { verificationRequest: true })
        return { redirect: redirectTo ?? (await start.send()) }
      },
    },
    // The link's click: no CSRF token can ride on it.
    callback: {
      csrf: false,
      async finish(req, config, provider) {
        return { identity: await finishEmail(req, config, asEmailProvider(provider)), cookies: [] }
      },
    },
  },
  formAction: "signin",
  // The clicked link proves the mailbox: its user signs in, whoever is signed in on this browser (no account row).
  linking: { user: "mailbox", withJwtSessions: true, toSignedInUser: false, keepsFlowUserId: false },
  reportsNewUser: true,
  refreshesAccessTokens: false,
  holdsAuthenticators: false,
  page: {
    place: "form",
    fields: (_p, locale) => [
      {
        name: "email",
        spec: { type: "email", placeholder: locale.signIn.emailPlaceholder, autocomplete: "email", required: true },
        label: locale.signIn.emailLabel,
      },
    ],
    identifierField: () => "email",
    localName: (p, locale) => (p.name === "Email" ? locale.signIn.providerNames.email : undefined),
    failureCode: EmailSignInError.pageCode,
  },
}
