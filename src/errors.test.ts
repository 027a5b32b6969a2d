// The error policy on the classes: each class's ?error= code and status, and the error page that agrees with them.
import { describe, expect, it } from "vitest"
import * as errors from "./errors.js"
import {
  AuthError,
  CredentialsSignin,
  EmailSignInError,
  InvalidRequest,
  MissingStoreMethods,
  UnknownAction,
} from "./errors.js"
import { errorPage } from "./pages/error.js"
import { en } from "./pages/locales/index.js"

/** Every error class `gatehouse/errors` exports, by name. */
const classes = Object.entries(errors).filter(
  (entry): entry is [string, typeof AuthError] =>
    typeof entry[1] === "function" && (entry[1] === AuthError || entry[1].prototype instanceof AuthError),
)

/** The codes a browser may see, with their statuses: the ?error= values Auth.js clients know, plus RateLimited. */
const SHOWN: Record<string, [pageCode: string, status: number]> = {
  AccessDenied: ["AccessDenied", 403],
  Verification: ["Verification", 403],
  CredentialsSignin: ["CredentialsSignin", 200],
  OAuthAccountNotLinked: ["OAuthAccountNotLinked", 200],
  OAuthCallbackError: ["OAuthCallbackError", 200],
  EmailSignInError: ["EmailSignin", 200],
  MissingCSRF: ["MissingCSRF", 200],
  AccountNotLinked: ["AccountNotLinked", 200],
  WebAuthnVerificationError: ["WebAuthnVerificationError", 200],
  RateLimited: ["RateLimited", 429],
}
/** Answered as JSON naming the error, never on a page. */
const JSON_ONLY = new Set(["UnknownAction", "InvalidRequest"])

const page = (error: string, code?: string) =>
  errorPage({
    error,
    code,
    signInUrl: "https://app.test/auth/signin",
    homeUrl: "https://app.test",
    theme: {},
    locale: en,
  })

describe("error policy on the classes", () => {
  it("covers every exported class, including MissingStoreMethods", () => {
    expect(classes.length).toBeGreaterThan(35)
    expect(classes.map(([name]) => name)).toContain("MissingStoreMethods")
  })

  it.each(classes)("%s: its page code and status", (name, cls) => {
    const [pageCode, status] = SHOWN[name] ?? ["Configuration", JSON_ONLY.has(name) ? 400 : 500]
    expect({ pageCode: cls.pageCode, status: cls.status }).toEqual({ pageCode, status })
  })

  it.each(classes.filter(([name]) => !JSON_ONLY.has(name)))(
    "%s: the error page for its code answers the class's status",
    (_name, cls) => {
      expect(page(cls.pageCode).status).toBe(cls.status)
    },
  )

  it("every code with an error page of its own is some class's code, and shows that page, not the generic one", () => {
    const codes = new Set(classes.map(([, cls]) => cls.pageCode))
    for (const [code, message] of Object.entries(en.error.pages)) {
      expect(codes.has(code), code).toBe(true)
      expect(page(code).html).toContain(message.heading)
    }
    expect(page("NoSuchCode").html).toContain(en.error.default.heading)
  })

  it("a subclass keeps its parent's policy; an instance's type stays its own class's", () => {
    class WrongOtp extends CredentialsSignin {
      override code = "otp"
    }
    expect(WrongOtp.pageCode).toBe("CredentialsSignin")
    expect(new WrongOtp().type).toBe("CredentialsSignin")
    expect(new EmailSignInError().type).toBe("EmailSignInError")
    expect(new MissingStoreMethods("x")).toMatchObject({ type: "MissingStoreMethods", name: "MissingStoreMethods" })
    expect(new MissingStoreMethods("x")).toBeInstanceOf(AuthError)
  })

  it("a JSON-only error's instance status can differ from its class's default", () => {
    expect(new InvalidRequest("too large", 413).status).toBe(413)
    expect(new InvalidRequest("bad body").status).toBe(InvalidRequest.status)
    expect(UnknownAction.status).toBe(400)
  })
})
