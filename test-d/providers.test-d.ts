// Type tests (compiled by `tsc -p tsconfig.json --noEmit`, never run) for the Twitter, VK and TikTok provider
// types: the profile shapes of the seed (§2.4-§2.6, with the real key names) are accepted, wrong enum values,
// wrong primitive types, missing required fields and the seed's placeholder names are rejected.
import { customFetch, type AuthConfig, type Provider } from "gatehouse"
import Twitter, {
  type TwitterLegacyProfile,
  type TwitterOptions,
  type TwitterProfile,
} from "gatehouse/providers/twitter"
import VK, { type VkOptions, type VkProfile } from "gatehouse/providers/vk"
import TikTok, {
  type TikTokError,
  type TikTokOptions,
  type TikTokProfile,
  type TikTokUser,
} from "gatehouse/providers/tiktok"

// ---------------------------------------------------------------------------------------------------------
// Twitter / X (users/me, docs/providers/twitter.md: `data` + optional `includes`; the pinned post is pinned_tweet_id /
// includes.tweets)

export const twitterFull: TwitterProfile = {
  data: {
    id: "1349149096909668363",
    name: "Tess",
    username: "tess",
    created_at: "2021-01-13T00:00:00.000Z",
    description: "Posting #tests",
    entities: {
      description: { hashtags: [{ start: 8, end: 14, tag: "tests" }] },
      url: {
        urls: [
          {
            start: 0,
            end: 23,
            url: "https://t.co/x",
            expanded_url: "https://tess.example",
            display_url: "tess.example",
          },
        ],
      },
    },
    location: "Localhost",
    pinned_tweet_id: "1610000000000000001",
    profile_image_url: "https://pbs.twimg.com/profile_images/1/a_normal.jpg",
    protected: false,
    url: "https://t.co/x",
    verified: true,
  },
  includes: { tweets: [{ id: "1610000000000000001", text: "pinned" }] },
  // Extra keys are allowed at the top level ([claims: string]: unknown).
  errors: [{ title: "partial" }],
}
export const twitterMinimal: TwitterProfile = { data: { id: "1", name: "N", username: "n" } }
export const twitterEmail: TwitterProfile = { data: { id: "1", name: "N", username: "n", email: "n@example.com" } }

// @ts-expect-error data.id is a string (large integers), not a number
export const twitterNumericId: TwitterProfile = { data: { id: 1349149096909668363, name: "N", username: "n" } }
// @ts-expect-error username is required
export const twitterNoUsername: TwitterProfile = { data: { id: "1", name: "N" } }
// @ts-expect-error `data` is required
export const twitterNoData: TwitterProfile = { includes: {} }
// @ts-expect-error the seed's placeholder name: the real field is pinned_tweet_id
export const twitterSeedPinned: TwitterProfile = { data: { id: "1", name: "N", username: "n", pinned_post_id: "2" } }
export const twitterSeedPosts: TwitterProfile = {
  data: { id: "1", name: "N", username: "n" },
  // @ts-expect-error the seed's includes.posts is includes.tweets
  includes: { posts: [{ id: "2", text: "t" }] },
}
export const twitterTweetNoText: TwitterProfile = {
  data: { id: "1", name: "N", username: "n" },
  // @ts-expect-error a post needs its text
  includes: { tweets: [{ id: "2" }] },
}
// @ts-expect-error verified is a boolean
export const twitterVerifiedString: TwitterProfile = { data: { id: "1", name: "N", username: "n", verified: "yes" } }
export const twitterHashtag: TwitterProfile = {
  data: {
    id: "1",
    name: "N",
    username: "n",
    // @ts-expect-error hashtag positions are numbers
    entities: { description: { hashtags: [{ start: "0", end: 1, tag: "t" }] }, url: { urls: [] } },
  },
}

export const legacy: TwitterLegacyProfile = {
  id: 1,
  id_str: "1",
  name: "N",
  screen_name: "n",
  email: "n@example.com",
  profile_image_url_https: "https://pbs.twimg.com/a_normal.jpg",
  followers_count: 3,
}
// @ts-expect-error id_str is required (the numeric id loses precision)
export const legacyNoIdStr: TwitterLegacyProfile = { id: 1, name: "N", screen_name: "n" }

export const twitterOptions: TwitterOptions[] = [
  {},
  {
    version: "2.0",
    clientId: "id",
    clientSecret: "s",
    userFields: ["description", "location"],
    expansions: ["pinned_tweet_id"],
  },
  {
    version: "1.0A",
    requestTokenUrl: "https://api.x.com/oauth/request_token",
    profileUrl: "https://api.x.com/1.1/account/verify_credentials.json",
  },
  { [customFetch]: fetch },
]
// @ts-expect-error only "2.0" and "1.0A"
export const twitterBadVersion: TwitterOptions = { version: "3.0" }
// @ts-expect-error userFields is a list
export const twitterBadFields: TwitterOptions = { userFields: "description" }

export const twitterMapped = Twitter({
  // Annotated explicitly: the callback may also rely on the contextual type (checked at the end of this file).
  profile(profile: TwitterProfile | TwitterLegacyProfile) {
    // The callback sees either shape; narrowing on `data` picks the OAuth 2 one.
    if ("data" in profile && typeof profile.data === "object") return { id: (profile as TwitterProfile).data.id }
    return { id: (profile as TwitterLegacyProfile).id_str }
  },
})

// ---------------------------------------------------------------------------------------------------------
// VK (users.get, docs/providers/vk.md; `connections` and `exports` carry VK's keys skype, facebook, twitter,
// livejournal, instagram)

export const vkMinimal: VkProfile = {
  id: 1,
  first_name: "Pavel",
  last_name: "Durov",
  is_closed: false,
  can_access_closed: true,
  photo_100: "https://vk.example/p100.jpg",
}

export const vkFull: VkProfile = {
  ...vkMinimal,
  blacklisted: 0,
  blacklisted_by_me: 1,
  can_post: 1,
  can_see_all_posts: 0,
  can_see_audio: 1,
  can_send_friend_request: 1,
  can_write_private_message: 0,
  has_mobile: 1,
  has_photo: 1,
  is_favorite: 0,
  is_friend: 1,
  is_hidden_from_feed: 0,
  is_no_index: 1,
  online: 1,
  online_mobile: 0,
  trending: 0,
  verified: 1,
  about: "a",
  activities: "b",
  bdate: "10.10.1984",
  books: "c",
  deactivated: "banned",
  domain: "durov",
  email: "p@vk.example",
  games: "g",
  home_town: "SPb",
  interests: "i",
  maiden_name: "m",
  movies: "mv",
  music: "mu",
  nickname: "n",
  quotes: "q",
  screen_name: "durov",
  site: "https://t.me",
  status: "s",
  tv: "tv",
  photo_200: "u",
  photo_200_orig: "u",
  photo_400: "u",
  photo_400_orig: "u",
  photo_50: "u",
  photo_id: "1_2",
  photo_max: "u",
  photo_max_orig: "u",
  first_name_abl: "a",
  first_name_acc: "a",
  first_name_dat: "a",
  first_name_gen: "a",
  first_name_ins: "a",
  first_name_nom: "a",
  last_name_abl: "a",
  last_name_acc: "a",
  last_name_dat: "a",
  last_name_gen: "a",
  last_name_ins: "a",
  last_name_nom: "a",
  common_count: 1,
  followers_count: 2,
  online_app: 3,
  timezone: 3,
  friend_status: 3,
  sex: 2,
  relation: 8,
  wall_default: "owner",
  career: {
    city_id: 1,
    city_name: "SPb",
    company: "VK",
    country_id: 1,
    from: 2006,
    group_id: 1,
    position: "CEO",
    until: 2014,
  },
  city: { id: 2, title: "Saint Petersburg" },
  country: { id: 1, title: "Russia" },
  connections: { skype: "p.durov", facebook: "durov", twitter: "durov", livejournal: "durov", instagram: "durov" },
  exports: { facebook: 1, twitter: 0, livejournal: 0, instagram: 1 },
  contacts: { home_phone: "1", mobile_phone: "2" },
  counters: {
    albums: 1,
    audios: 1,
    followers: 1,
    friends: 1,
    groups: 1,
    mutual_friends: 1,
    notes: 1,
    online_friends: 1,
    pages: 1,
    photos: 1,
    user_videos: 1,
    videos: 1,
  },
  education: { faculty: 1, faculty_name: "Philology", graduation: 2006, university: 1, university_name: "SPbU" },
  last_seen: { platform: 7, time: 1700000000 },
  military: { country_id: 1, unit: "u", unit_id: 1, from: 2000, until: 2001 },
  occupation: { id: 1, name: "VK", type: "work" },
  personal: {
    alcohol: 1,
    inspired_by: "x",
    langs: ["ru", "en"],
    life_main: 8,
    people_main: 6,
    political: 9,
    religion: "r",
    smoking: 5,
  },
  relation_partner: {
    first_name: "A",
    last_name: "B",
    id: 2,
    can_access_closed: true,
    deactivated: "deleted",
    hidden: 0,
    is_closed: false,
  },
  relatives: [
    { id: 3, name: "C", type: "sibling" },
    { id: 4, name: "D", type: "grandparent" },
  ],
  schools: [
    {
      city: 1,
      class: "a",
      country: 1,
      id: "1",
      name: "School",
      speciality: "s",
      type: 1,
      type_str: "t",
      year_from: 1990,
      year_graduated: 2001,
      year_to: 2001,
    },
  ],
  status_audio: {
    artist: "A",
    duration: 180,
    id: 1,
    owner_id: 1,
    title: "T",
    access_key: "k",
    album_id: 1,
    date: 1,
    genre_id: 1,
    performer: "P",
    url: "u",
  },
  universities: [
    {
      chair: 1,
      chair_name: "c",
      city: 1,
      country: 1,
      education_form: "f",
      education_status: "s",
      faculty: 1,
      faculty_name: "fn",
      graduation: 2006,
      id: 1,
      name: "SPbU",
      university_group_id: 1,
    },
  ],
  crop_photo: {
    crop: { x: 0, x2: 100, y: 0, y2: 100 },
    rect: { x: 0, x2: 100, y: 0, y2: 100 },
    photo: {
      album_id: -6,
      date: 1,
      has_tags: false,
      id: 1,
      owner_id: 1,
      access_key: "k",
      can_comment: 1,
      height: 100,
      lat: 59.9,
      long: 30.3,
      photo_256: "u",
      place: "p",
      post_id: 1,
      text: "t",
      user_id: 1,
      width: 100,
      images: [{ height: 1, width: 1, url: "u", type: "z" }],
      sizes: [
        { height: 1, width: 1, url: "u", src: "u", type: "max" },
        { height: 1, width: 1, url: "u", src: "u", type: "temp" },
      ],
    },
  },
}

// @ts-expect-error sex is 0, 1 or 2
export const vkSex: VkProfile = { ...vkMinimal, sex: 3 }
// @ts-expect-error wall_default is "all" or "owner"
export const vkWall: VkProfile = { ...vkMinimal, wall_default: "friends" }
// @ts-expect-error occupation.type is work, school or university
export const vkOccupation: VkProfile = { ...vkMinimal, occupation: { type: "job" } }
// @ts-expect-error relatives[].type has five values
export const vkRelative: VkProfile = { ...vkMinimal, relatives: [{ id: 1, name: "n", type: "cousin" }] }
// @ts-expect-error last_seen.platform is 1..7
export const vkPlatform: VkProfile = { ...vkMinimal, last_seen: { platform: 8 } }
// @ts-expect-error personal.political is 1..9
export const vkPolitical: VkProfile = { ...vkMinimal, personal: { political: 10 } }
// @ts-expect-error personal.people_main is 1..6
export const vkPeopleMain: VkProfile = { ...vkMinimal, personal: { people_main: 7 } }
// @ts-expect-error flags are 0 or 1
export const vkFlag: VkProfile = { ...vkMinimal, online: 2 }
// @ts-expect-error friend_status is 0..3
export const vkFriendStatus: VkProfile = { ...vkMinimal, friend_status: 4 }
// @ts-expect-error relation is 0..8
export const vkRelation: VkProfile = { ...vkMinimal, relation: 9 }
export const vkImageType: VkProfile = {
  ...vkMinimal,
  crop_photo: {
    ...vkFull.crop_photo!,
    // @ts-expect-error crop photo image types are the listed letters
    photo: { ...vkFull.crop_photo!.photo, images: [{ height: 1, width: 1, url: "u", type: "max" }] },
  },
}
// @ts-expect-error photo_100 is required
export const vkNoPhoto: VkProfile = {
  id: 1,
  first_name: "a",
  last_name: "b",
  is_closed: false,
  can_access_closed: true,
}
// @ts-expect-error id is a number
export const vkStringId: VkProfile = { ...vkMinimal, id: "1" }
// @ts-expect-error city needs its title
export const vkCity: VkProfile = { ...vkMinimal, city: { id: 1 } }
// @ts-expect-error military needs unit and unit_id
export const vkMilitary: VkProfile = { ...vkMinimal, military: { country_id: 1 } }
// @ts-expect-error the seed's placeholder names are the real services (connections.skype, .facebook, ...)
export const vkSeedConnections: VkProfile = { ...vkMinimal, connections: { net_a: "x" } }
// @ts-expect-error exports are numbers
export const vkExports: VkProfile = { ...vkMinimal, exports: { twitter: "1" } }

export const vkOptions: VkOptions[] = [
  {},
  { apiVersion: "5.199" },
  {
    accessTokenUrl: "https://oauth.vk.com/access_token?v=5.131",
    requestTokenUrl: "https://oauth.vk.com/access_token?v=5.131",
    authorizationUrl: "https://oauth.vk.com/authorize?response_type=code&v=5.131",
    profileUrl: "https://api.vk.com/method/users.get?fields=photo_100&v=5.131",
  },
]
// @ts-expect-error apiVersion is a string ("5.131")
export const vkNumericVersion: VkOptions = { apiVersion: 5.131 }
export const vkMapped = VK({
  profile: (p: VkProfile) => ({ id: String(p.id), name: `${p.first_name} ${p.last_name}`, image: p.photo_100 }),
})

// ---------------------------------------------------------------------------------------------------------
// TikTok (user info, docs/providers/tiktok.md: data.user on success, error { code, log_id, message })

const creator: TikTokUser = { open_id: "oid", avatar_url: "u", display_name: "D", username: "d" }
export const tiktokFull: TikTokProfile = {
  data: {
    user: {
      ...creator,
      avatar_large_url: "u",
      avatar_url_100: "u",
      bio_description: "b",
      email: "e@x",
      follower_count: 1,
      following_count: 2,
      is_verified: true,
      likes_count: 3,
      profile_deep_link: "https://vm.tiktok.com/x",
      union_id: "uid",
      video_count: 4,
    },
  },
  error: { code: "ok", log_id: "20240101", message: "" },
}
export const tiktokError: TikTokError = {
  code: "access_token_invalid",
  log_id: "2024",
  message: "The access token is invalid.",
}

export const tiktokNoOpenId: TikTokProfile = {
  // @ts-expect-error open_id is required
  data: { user: { avatar_url: "u", display_name: "D", username: "d" } },
  error: tiktokError,
}
// @ts-expect-error username is required
export const tiktokNoUsername: TikTokUser = { open_id: "o", avatar_url: "u", display_name: "D" }
// @ts-expect-error follower_count is a number
export const tiktokCount: TikTokUser = { ...creator, follower_count: "1" }
// @ts-expect-error is_verified is a boolean
export const tiktokVerified: TikTokUser = { ...creator, is_verified: 1 }
// @ts-expect-error the error object needs its log_id
export const tiktokErrorNoLog: TikTokError = { code: "x", message: "m" }
// @ts-expect-error the envelope needs `error`
export const tiktokNoEnvelope: TikTokProfile = { data: { user: creator } }

export const tiktokOptions: TikTokOptions[] = [
  {},
  { fields: ["avatar_large_url", "is_verified"] },
  { clientId: "key", clientSecret: "s", authorization: { params: { scope: "user.info.profile,user.info.stats" } } },
]
// @ts-expect-error fields is a list
export const tiktokBadFields: TikTokOptions = { fields: "is_verified" }
export const tiktokMapped = TikTok({
  profile: (p: TikTokProfile) => ({ id: p.data.user.open_id, name: p.data.user.display_name }),
})

// ---------------------------------------------------------------------------------------------------------
// The providers go in a config, called or uncalled, as in Auth.js (each with a cast today: see below).

export const config: AuthConfig = {
  providers: [Twitter(), Twitter({ version: "2.0" }), VK(), VK({ apiVersion: "5.131" }), TikTok(), TikTok({})].map(
    (p) => p as Provider,
  ),
}

// ---------------------------------------------------------------------------------------------------------
// Built-in providers fit AuthConfig["providers"] as they are, and their options are typed.
type Assignable<A, B> = [A] extends [B] ? true : false
type ProfileParam<O> = O extends { profile?(profile: infer P, ...rest: never[]): unknown } ? P : "untyped"

// A built-in provider, called or uncalled, is a Provider without a cast.
export const twitterIsProvider: Assignable<ReturnType<typeof Twitter>, Provider> = true
export const vkIsProvider: Assignable<ReturnType<typeof VK>, Provider> = true
export const tiktokIsProvider: Assignable<ReturnType<typeof TikTok>, Provider> = true
export const uncalledIsProvider: Assignable<typeof TikTok, Provider> = true

// Options are typed: wrong types are refused and `profile` callbacks see the provider's profile type.
export const clientIdMustBeString: Assignable<{ clientId: number }, TwitterOptions> = false
export const checksAreKnown: Assignable<{ checks: ["bogus"] }, VkOptions> = false
export const authorizationIsAnEndpoint: Assignable<{ authorization: number }, TikTokOptions> = false
export const twitterProfileParam: ProfileParam<TwitterOptions> = {} as TwitterProfile | TwitterLegacyProfile
export const vkProfileParam: ProfileParam<VkOptions> = {} as VkProfile
export const tiktokProfileParam: ProfileParam<TikTokOptions> = {} as TikTokProfile
