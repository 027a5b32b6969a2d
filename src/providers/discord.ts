// Discord (OAuth 2): the identify + email scopes, GET /users/@me, avatar URL built from the avatar hash.
import type { OAuthConfigBase, OAuthUserConfig } from "./types.js"

/** The user as Discord's `GET /users/@me` returns it (the fields Gatehouse reads; Discord sends more). */
export interface DiscordProfile {
  /** A snowflake, as a string. */
  id: string
  username: string
  /** "0" for accounts on the new username system. */
  discriminator: string
  global_name: string | null
  /** The avatar hash (`a_…` for an animated one), or null for the default avatar. */
  avatar: string | null
  email: string | null
  verified: boolean
  /** Set by the default `profile` callback: the avatar's CDN URL. */
  image_url: string
  [key: string]: any // `any`, as in Auth.js: other fields read untyped
}

/** The CDN URL of the user's avatar, or of the default avatar Discord shows when none is set. */
function avatarUrl(p: DiscordProfile): string {
  if (p.avatar)
    return `https://cdn.discordapp.com/avatars/${p.id}/${p.avatar}.${p.avatar.startsWith("a_") ? "gif" : "png"}`
  const index =
    p.discriminator === "0" || !p.discriminator ? Number((BigInt(p.id) >> 22n) % 6n) : Number(p.discriminator) % 5
  return `https://cdn.discordapp.com/embed/avatars/${index}.png`
}

/**
 * Discord sign-in. Callback URL to register: `<origin><basePath>/callback/discord`.
 * Env: AUTH_DISCORD_ID, AUTH_DISCORD_SECRET.
 */
export default function Discord<P extends DiscordProfile>(options: OAuthUserConfig<P> = {}): OAuthConfigBase<P> {
  return {
    id: "discord",
    name: "Discord",
    type: "oauth",
    authorization: { url: "https://discord.com/api/oauth2/authorize", params: { scope: "identify email" } },
    token: "https://discord.com/api/oauth2/token",
    userinfo: "https://discord.com/api/users/@me",
    profile(profile) {
      if (profile.id == null) return { id: undefined }
      profile.image_url = avatarUrl(profile)
      return {
        id: String(profile.id),
        name: profile.global_name ?? profile.username,
        email: profile.email ?? null,
        image: profile.image_url,
      }
    },
    style: {
      // A game-pad glyph, drawn for Gatehouse: white on Discord's blurple (4.6:1).
      logo: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath fill='%23fff' d='M7 5l10 0l3 3l2 9l-3 2l-3-3h-8l-3 3l-3-2l2-9zM8.5 10.5a1.5 1.5 0 1 0 0 3a1.5 1.5 0 1 0 0-3zM15.5 10.5a1.5 1.5 0 1 0 0 3a1.5 1.5 0 1 0 0-3z' fill-rule='evenodd'/%3E%3C/svg%3E",
      bg: "#5865F2",
      text: "#fff",
    },
    options,
  }
}
export { Discord }
