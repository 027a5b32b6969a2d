// The default e-mail address normaliser (one plain address, its domain in ASCII), shared by the e-mail and WebAuthn
// sign-ins and public through gatehouse/providers/email; a leaf below the flows and the providers.
import { EmailSignInError } from "../errors.js"
import { domainToAscii } from "./idn.js"

/** Longest address accepted (RFC 5321 §4.5.3.1.3 path limit minus the brackets). */
const MAX_ADDRESS_LENGTH = 254
/** Longest local part (RFC 5321 §4.5.3.1.1). */
const MAX_LOCAL_LENGTH = 64

/**
 * Characters that turn one address into something else for a mailer: lists (`,` `;`), display names and routes
 * (`<` `>` `:`), comments `( )`, quoted strings, domain literals, escapes, `%` source routes, and any whitespace.
 */
const ADDRESS_SYNTAX = /[\s,;:<>()[\]"\\%]/u
/** Control, format (zero-width, bidi), surrogate, private-use and unassigned code points, and line/paragraph separators. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u
/** A dot-atom local part (RFC 5322 §3.2.3 atext, plus letters and digits of any script). */
const LOCAL_PART = /^[\p{L}\p{N}\p{M}!#$&'*+/=?^_`{|}~-]+(?:\.[\p{L}\p{N}\p{M}!#$&'*+/=?^_`{|}~-]+)*$/u
/** One DNS label of letters, digits and inner hyphens (IDN labels in their Unicode form pass too). */
const DOMAIN_LABEL = /^[\p{L}\p{N}\p{M}](?:[\p{L}\p{N}\p{M}-]{0,61}[\p{L}\p{N}\p{M}])?$/u

/**
 * The default `normalizeIdentifier`: NFKC, trim, lower-case, then exactly one plain address (one ASCII `@`, a dot-atom
 * local part, a host name written in its ASCII/punycode form) or a throw. Lists, quoted parts, comments, display
 * names, groups, whitespace, control, zero-width and bidi characters are refused rather than repaired
 * (docs/security.md EM-06, EM-07, EM-08, EM-12).
 */
export function normalizeEmailAddress(identifier: string): string {
  if (typeof identifier !== "string") throw new EmailSignInError("The e-mail address is missing.")
  // Bounded before any regular expression runs (the end-trim below is quadratic on long runs of spaces).
  if (identifier.length > 4 * MAX_ADDRESS_LENGTH) throw new EmailSignInError("The e-mail address is too long.")
  // Only ASCII whitespace is trimmed (a pasted tab or line break at the ends); String#trim would also drop a
  // byte-order mark, and nothing invisible is repaired. NFKC has turned other spaces into ASCII ones already.
  const address = identifier
    .normalize("NFKC")
    .replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, "")
    .toLowerCase()
  if (INVISIBLE.test(address))
    throw new EmailSignInError("The e-mail address contains invisible or control characters.")
  if (address === "" || address.length > MAX_ADDRESS_LENGTH)
    throw new EmailSignInError("The e-mail address is empty or too long.")
  if (ADDRESS_SYNTAX.test(address))
    throw new EmailSignInError(
      "The e-mail address must be one plain address, without names, lists, quotes or comments.",
    )
  const at = address.indexOf("@")
  if (at <= 0 || at !== address.lastIndexOf("@") || at === address.length - 1)
    throw new EmailSignInError("The e-mail address must have exactly one `@` between a name and a domain.")
  const local = address.slice(0, at)
  const domain = address.slice(at + 1)
  if (local.length > MAX_LOCAL_LENGTH || !LOCAL_PART.test(local))
    throw new EmailSignInError("The part of the e-mail address before `@` is not valid.")
  if (!domain.split(".").every((label) => DOMAIN_LABEL.test(label)))
    throw new EmailSignInError("The domain of the e-mail address is not valid.")
  // One spelling per mailbox (docs/security.md EM-12): the domain as DNS and SMTP use it, in ASCII (punycode), so
  // `bücher.example` and `xn--bcher-kva.example` share one rate-limit count, one token identifier and one user.
  const asciiDomain = domainToAscii(domain)
  if (asciiDomain === undefined)
    throw new EmailSignInError("The domain of the e-mail address is not a valid domain name.")
  const canonical = `${local}@${asciiDomain}`
  if (canonical.length > MAX_ADDRESS_LENGTH)
    throw new EmailSignInError("The e-mail address is too long once its domain is written in ASCII.")
  return canonical
}
