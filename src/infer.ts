// Types read off a config: `InferSession<typeof config>` is what the `session` callback returns and
// `InferJWT<typeof config>` what the `jwt` callback returns, so the integrations type their session reads without
// module augmentation. Type-only: nothing here exists at run time.
import type { DefaultUser } from "./records.js"
import type { DefaultSession, JWT, Session, User } from "./types.js"

/** Leaves a value as it is: objects whose fields are not filled in (dates, functions, arrays). */
type Leaf = Date | ((...args: never[]) => unknown) | readonly unknown[]

/** True for `any` only. */
type IsAny<T> = 0 extends 1 & T ? true : false

/** The callback `Name` of config `C` (a function form's result for gatehouse/next), resolved; never when there is none. */
type CallbackResult<C, Name extends "jwt" | "session"> = C extends { callbacks?: infer Callbacks }
  ? Callbacks extends { [K in Name]?: infer F }
    ? NonNullable<F> extends (...args: never[]) => infer R
      ? Exclude<Awaited<R>, null | undefined>
      : never
    : never
  : never

/** Fields app code added to `Session` and `User` by module augmentation of `gatehouse/types`: those win. */
type AugmentedSessionKeys = Exclude<keyof Session, keyof DefaultSession>
type AugmentedUserKeys = Exclude<keyof User, keyof DefaultUser>

/** The token field `K` for a field the session callback typed `unknown`: at the same path in the token, else at its top. */
type TokenField<J, Top, K> = K extends keyof J ? (unknown extends J[K] ? TopField<Top, K> : J[K]) : TopField<Top, K>
type TopField<Top, K> = K extends keyof Top ? Top[K] : unknown

/** The token's object under `K`, where the session's nested object `K` looks its `unknown` fields up first. */
type TokenObject<J, K> = K extends keyof J ? (J[K] extends object ? J[K] : object) : object

/**
 * The session callback's result `R` with each `unknown` field (a field read from the `token` parameter, which the
 * config's `satisfies AuthConfig` types as JWT, whose index signature gives `unknown`) replaced by the same-named field
 * the `jwt` callback returns (`J` at this level, `Top` the whole token), two object levels deep (the session, its
 * `user`). Fields named in `AK` (augmented) take their declared type from `A`.
 */
// `{} &`: editors then show the session's fields, not `Fill<…>` (the intersection with `{}` changes no type).
type Fill<R, J, Top, A, AK, Depth extends 0[]> = {} & {
  [K in keyof R]: K extends AK
    ? K extends keyof A
      ? A[K]
      : R[K]
    : unknown extends R[K]
      ? TokenField<J, Top, K>
      : Depth["length"] extends 0
        ? K extends "expires"
          ? ExpiresOf<R[K]>
          : FillValue<
              R[K],
              TokenObject<J, K>,
              Top,
              K extends "user" ? User : object,
              K extends "user" ? AugmentedUserKeys : never,
              [0]
            >
        : Depth["length"] extends 1
          ? FillValue<R[K], TokenObject<J, K>, Top, object, never, [0, 0]>
          : R[K]
}

/** Distributes over a union (an optional `user` is `User | undefined`) and fills only plain objects. */
type FillValue<V, J, Top, A, AK, Depth extends 0[]> = V extends Leaf
  ? V
  : V extends object
    ? Fill<V, J, Top, A, AK, Depth>
    : V

/** `expires` spread from the callback's `session` parameter is typed `Date & string` there; what is sent is the ISO string. */
type ExpiresOf<E> = E extends string ? string : E

/**
 * What the config's `jwt` callback returns, with literal types kept (`role: "admin" as const` stays `"admin"`). A
 * config without a `jwt` callback, or one typed `: AuthConfig`, gives `JWT` (with its module augmentation).
 */
export type InferJWT<C> = IsAny<C> extends true ? JWT : InferJWTOf<CallbackResult<C, "jwt">>
type InferJWTOf<J> = [J] extends [never] ? JWT : JWT extends J ? JWT : J

/**
 * The session a config's session reads return (`getSession(req, config)`, `auth()`, `locals.auth()`): what its
 * `session` callback returns, where a field the callback takes from the token (`role: token.role`, typed `unknown`
 * under `satisfies AuthConfig`) has the type the `jwt` callback returns for that field, at the top level and in `user`.
 *
 * - No `session` callback, or a config typed `: AuthConfig`: `Session` (the default shape: the user's name, e-mail
 *   and image, and `expires`; fields the `jwt` callback adds to the token are not in it, as they are not sent).
 * - Fields declared on `Session` / `User` by module augmentation of `gatehouse/types` keep their declared type.
 * - Fields spread from the callback's `session` parameter keep that parameter's declared type (Auth.js types it as
 *   both strategies' shapes at once); return only the fields you send for an exact type.
 */
export type InferSession<C> =
  IsAny<C> extends true ? Session : InferSessionOf<CallbackResult<C, "session">, InferJWT<C>>
type InferSessionOf<R, J> = [R] extends [never]
  ? Session
  : Session extends R
    ? Session
    : FillValue<R, J, J, Session, AugmentedSessionKeys, []>
