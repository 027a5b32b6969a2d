// Sign in with Apple (OpenID Connect): the ID token is the profile; Apple answers with form_post and wants state and nonce.
import type { OAuthConfigBase, OIDCUserConfig } from "./types.js"

/** The claims of an Apple ID token (Apple sends booleans as strings in some of them). */
export interface AppleProfile {
  iss: "https://appleid.apple.com"
  aud: string
  iat: number
  exp: number
  sub: string
  nonce: string
  nonce_supported: boolean
  email: string
  email_verified?: boolean | "true" | "false"
  is_private_email: boolean | "true" | "false"
  real_user_status: 0 | 1 | 2
  transfer_sub: string
  at_hash: string
  auth_time: number
  /** The `user` form field Apple posts on the first consent only (copied here through `profileCallbackFields`). */
  user?: AppleNonConformUser
  [claim: string]: any // `any`, as in Auth.js: other fields read untyped
}

/** The `user` JSON Apple posts with the authorization response, the first time the user consents. */
export interface AppleNonConformUser {
  name: { firstName: string; lastName: string }
  email: string
}

/**
 * Sign in with Apple. Return URL to register for the Services ID: `<origin><basePath>/callback/apple` (https only).
 * Env: AUTH_APPLE_ID (the Services ID), AUTH_APPLE_SECRET (the client secret: an ES256 JWT you sign with your key,
 * valid at most six months). The ID token never carries the name; without a `user` object on the profile the name
 * is the e-mail address.
 */
export default function Apple(options: OIDCUserConfig<AppleProfile> = {}): OAuthConfigBase<AppleProfile> {
  return {
    id: "apple",
    name: "Apple",
    type: "oidc",
    issuer: "https://appleid.apple.com",
    // Apple's scopes are "name" and "email"; asking for either makes Apple answer with response_mode=form_post.
    authorization: { params: { scope: "name email", response_mode: "form_post" } },
    checks: ["nonce", "state"],
    // Apple posts the user's name once, as the `user` JSON field of the form_post callback: profile() reads it there.
    profileCallbackFields: ["user"],
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      const parts = [profile.user?.name?.firstName, profile.user?.name?.lastName].filter(Boolean)
      return {
        id: profile.sub,
        name: parts.length ? parts.join(" ") : (profile.email ?? null),
        email: profile.email ?? null,
        image: null,
      }
    },
    style: {
      // An apple with a bite and a leaf, drawn for Gatehouse: white on black.
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='%23fff'%3E%3Cpath d='M16.4 7.6c-1.4 0-2.3.8-3.4.8s-2.1-.8-3.4-.8C7.5 7.6 5 9.3 5 13c0 3.9 2.6 8 4.6 8c1.1 0 1.5-.6 2.5-.6s1.3.6 2.5.6c1.6 0 3.1-2.6 3.7-4.4c-1.6-.7-2.6-2.1-2.6-3.8c0-1.5.8-2.7 2-3.5c-.8-1.2-2-1.7-3.3-1.7zM15.3 2.5c-1.4.1-3 1.1-3.1 3.2c1.6.1 3-1.2 3.1-3.2z'/%3E%3C/svg%3E",
      bg: "#000",
      text: "#fff",
    },
    options,
  }
}
export { Apple }
