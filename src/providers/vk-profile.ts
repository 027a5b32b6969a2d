// The VK user object (users.get) as a TypeScript type, field by field as docs/providers/vk.md lists it, with VK's real
// key names.

type Flag = 0 | 1

/** `images[]` of a crop photo. */
interface VkPhotoImage {
  height: number
  width: number
  url: string
  type: "p" | "q" | "s" | "r" | "x" | "y" | "m" | "l" | "o" | "z" | "w"
}

/** `sizes[]` of a crop photo. */
interface VkPhotoSize {
  height: number
  width: number
  url: string
  src: string
  type:
    | "max"
    | "k"
    | "a"
    | "b"
    | "i"
    | "p"
    | "q"
    | "s"
    | "g"
    | "d"
    | "r"
    | "x"
    | "y"
    | "m"
    | "l"
    | "o"
    | "z"
    | "w"
    | "c"
    | "e"
    | "j"
    | "temp"
    | "h"
    | "n"
    | "f"
}

interface VkRect {
  x: number
  x2: number
  y: number
  y2: number
}

/** A VK user. Required: id, first_name, last_name, is_closed, can_access_closed, photo_100; everything else optional. */
export interface VkProfile {
  id: number
  first_name: string
  last_name: string
  is_closed: boolean
  can_access_closed: boolean
  photo_100: string

  blacklisted?: Flag
  blacklisted_by_me?: Flag
  can_post?: Flag
  can_see_all_posts?: Flag
  can_see_audio?: Flag
  can_send_friend_request?: Flag
  can_write_private_message?: Flag
  has_mobile?: Flag
  has_photo?: Flag
  is_favorite?: Flag
  is_friend?: Flag
  is_hidden_from_feed?: Flag
  is_no_index?: Flag
  online?: Flag
  online_mobile?: Flag
  trending?: Flag
  verified?: Flag

  about?: string
  activities?: string
  bdate?: string
  books?: string
  deactivated?: string
  domain?: string
  /** From the token response (scope `email`); users.get itself never returns it. */
  email?: string
  games?: string
  home_town?: string
  interests?: string
  maiden_name?: string
  movies?: string
  music?: string
  nickname?: string
  quotes?: string
  screen_name?: string
  site?: string
  status?: string
  tv?: string
  photo_200?: string
  photo_200_orig?: string
  photo_400?: string
  photo_400_orig?: string
  photo_50?: string
  photo_id?: string
  photo_max?: string
  photo_max_orig?: string

  first_name_abl?: string
  first_name_acc?: string
  first_name_dat?: string
  first_name_gen?: string
  first_name_ins?: string
  first_name_nom?: string
  last_name_abl?: string
  last_name_acc?: string
  last_name_dat?: string
  last_name_gen?: string
  last_name_ins?: string
  last_name_nom?: string

  common_count?: number
  followers_count?: number
  online_app?: number
  timezone?: number

  friend_status?: 0 | 1 | 2 | 3
  sex?: 0 | 1 | 2
  relation?: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8
  wall_default?: "all" | "owner"

  career?: {
    city_id?: number
    city_name?: string
    company?: string
    country_id?: number
    from?: number
    group_id?: number
    position?: string
    until?: number
  }
  city?: { id: number; title: string }
  country?: { id: number; title: string }
  /** The user's handles on other services (VK's `connections`: skype, facebook, twitter, livejournal, instagram). */
  connections?: { skype?: string; facebook?: string; twitter?: string; livejournal?: string; instagram?: string }
  /** Export settings per service (VK's `exports`: facebook, twitter, livejournal, instagram). */
  exports?: { facebook?: number; twitter?: number; livejournal?: number; instagram?: number }
  contacts?: { home_phone?: string; mobile_phone?: string }
  counters?: {
    albums?: number
    audios?: number
    followers?: number
    friends?: number
    groups?: number
    mutual_friends?: number
    notes?: number
    online_friends?: number
    pages?: number
    photos?: number
    user_videos?: number
    videos?: number
  }
  education?: {
    faculty?: number
    faculty_name?: string
    graduation?: number
    university?: number
    university_name?: string
  }
  last_seen?: { platform?: 1 | 2 | 3 | 4 | 5 | 6 | 7; time?: number }
  military?: { country_id: number; unit: string; unit_id: number; from?: number; until?: number }
  occupation?: { id?: number; name?: string; type?: "work" | "school" | "university" }
  personal?: {
    alcohol?: 1 | 2 | 3 | 4 | 5
    inspired_by?: string
    langs?: string[]
    life_main?: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8
    people_main?: 1 | 2 | 3 | 4 | 5 | 6
    political?: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9
    religion?: string
    smoking?: 1 | 2 | 3 | 4 | 5
  }
  relation_partner?: {
    first_name: string
    last_name: string
    id: number
    can_access_closed?: boolean
    deactivated?: string
    hidden?: number
    is_closed?: boolean
  }
  relatives?: { id: number; name: string; type: "parent" | "child" | "grandparent" | "grandchild" | "sibling" }[]
  schools?: {
    city: number
    class: string
    country: number
    id: string
    name: string
    speciality: string
    type: number
    type_str: string
    year_from: number
    year_graduated: number
    year_to: number
  }[]
  status_audio?: {
    artist: string
    duration: number
    id: number
    owner_id: number
    title: string
    access_key?: string
    album_id?: number
    date?: number
    genre_id?: number
    performer?: string
    url?: string
  }
  universities?: {
    chair: number
    chair_name: string
    city: number
    country: number
    education_form: string
    education_status: string
    faculty: number
    faculty_name: string
    graduation: number
    id: number
    name: string
    university_group_id: number
  }[]
  crop_photo?: {
    crop: VkRect
    rect: VkRect
    photo: {
      album_id: number
      date: number
      has_tags: boolean
      id: number
      owner_id: number
      access_key?: string
      can_comment?: Flag
      height?: number
      lat?: number
      long?: number
      photo_256?: string
      place?: string
      post_id?: number
      text?: string
      user_id?: number
      width?: number
      images?: VkPhotoImage[]
      sizes?: VkPhotoSize[]
    }
  }
}
