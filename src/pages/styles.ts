// The pages' CSS: one static sheet (its CSP hash computed once, at load) and the small theme sheet built from the
// checked theme and provider colours (its hash cached per distinct text).
import { sha256Sync, toBase64 } from "#crypto"

/**
 * Colours: light by default; `.__next-auth-theme-dark` always dark, `.__next-auth-theme-auto` dark when the system
 * prefers it (the body class names are Auth.js's, so an app's own CSS that targets them keeps working). Text pairs
 * meet WCAG AA (4.5:1) in both schemes.
 */
const DARK =
  "--page:#0d1117;--card:#161b22;--fg:#e6edf3;--muted:#9198a1;--border:#3d444d;--hover:#21262d;--input-bg:#0d1117;--input-border:#656c76;--link:#4493f8;--focus:#4493f8;--danger-bg:#25171c;--danger-border:#da3633;--danger-fg:#ffa198;color-scheme:dark"

/**
 * Buttons: `.button` is the neutral (secondary) look; `.primary` adds the brand colour, and each page has at most one.
 * `.mark` is the 24 px tile a provider's logo sits on (the provider's colour, `--p-bg`, from the theme sheet).
 * `[data-busy]` draws a spinner in a button at work (the form and passkey scripts set it).
 */
export const BASE_CSS = `:root{--page:#f6f8fa;--card:#fff;--fg:#1f2328;--muted:#59636e;--border:#d1d9e0;--hover:#f3f5f7;--input-bg:#fff;--input-border:#818b98;--link:#0969da;--focus:#0969da;--brand:#346df1;--button-text:#fff;--danger-bg:#ffebe9;--danger-border:#cf222e;--danger-fg:#a40e26;color-scheme:light}
.__next-auth-theme-dark{${DARK}}
@media (prefers-color-scheme:dark){.__next-auth-theme-auto{${DARK}}}
*{box-sizing:border-box}
body{margin:0;background:var(--page);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;-webkit-text-size-adjust:100%}
main{min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;padding:2rem 1rem}
.brand-logo{display:block;max-width:12rem;max-height:4.5rem;margin:0 auto 1.5rem}
.card{width:100%;max-width:24rem;background:var(--card);border:1px solid var(--border);border-radius:.75rem;padding:2rem 1.75rem;box-shadow:0 1px 3px rgba(31,35,40,.08),0 8px 24px rgba(31,35,40,.06)}
h1{margin:0 0 1.5rem;font-size:1.375rem;line-height:1.3;font-weight:600;text-align:center;overflow-wrap:anywhere}
p{margin:0 0 1.5rem;color:var(--muted);text-align:center}
form{margin:0}
label{display:block;margin:0 0 .375rem;font-size:.875rem;font-weight:600}
input{display:block;width:100%;margin:0 0 1rem;padding:.5625rem .75rem;border:1px solid var(--input-border);border-radius:.5rem;background:var(--input-bg);color:var(--fg);font:inherit}
input::placeholder{color:var(--muted);opacity:1}
.password{position:relative;margin:0 0 1rem}
.password input{margin:0;padding-right:5.5rem}
.reveal{position:absolute;top:.25rem;right:.25rem;bottom:.25rem;padding:0 .625rem;border:0;border-radius:.375rem;background:transparent;color:var(--link);font:inherit;font-size:.875rem;font-weight:600;cursor:pointer}
.reveal:hover{background:var(--hover)}
.reveal[hidden]{display:none}
.button{position:relative;display:flex;align-items:center;justify-content:center;gap:.625rem;width:100%;min-height:2.625rem;margin:0;padding:.5rem 1rem;border:1px solid var(--border);border-radius:.5rem;background:var(--card);color:var(--fg);font:inherit;font-size:.9375rem;font-weight:500;line-height:1.25;text-align:center;text-decoration:none;cursor:pointer}
.button:hover{background:var(--hover)}
.primary{min-height:2.75rem;border-color:transparent;background:var(--brand);color:var(--button-text);font-size:1rem;font-weight:600}
.primary:hover{background:var(--brand);filter:brightness(1.1)}
.button:disabled,.button[aria-disabled=true]{cursor:progress}
.button:disabled:not([data-busy]){opacity:.65;cursor:default;filter:none}
.button[data-busy]::before{content:"";flex:none;width:1rem;height:1rem;border:2px solid currentColor;border-right-color:transparent;border-radius:50%;animation:spin .8s linear infinite}
.button[data-busy] .mark{display:none}
@keyframes spin{to{transform:rotate(1turn)}}
@media (prefers-reduced-motion:reduce){.button[data-busy]::before{animation-duration:2.4s}}
.mark{display:flex;align-items:center;justify-content:center;flex:none;width:1.5rem;height:1.5rem;margin:-.125rem 0;border-radius:.375rem;background:var(--p-bg,transparent)}
.mark img{width:1.125rem;height:1.125rem}
.mark svg{width:1.25rem;height:1.25rem}
.providers,.methods{display:grid;gap:.625rem}
.methods{margin-top:1.25rem}
.main .primary{margin-top:.25rem}
details>summary{list-style:none}
details>summary::-webkit-details-marker{display:none}
.method>summary{padding-right:2.5rem;padding-left:2.5rem}
.method>summary::after{content:"";position:absolute;right:1.125rem;top:50%;width:.4375rem;height:.4375rem;margin-top:-.3125rem;border:solid var(--muted);border-width:0 2px 2px 0;transform:rotate(45deg)}
.method[open]>summary::after{margin-top:-.0625rem;transform:rotate(-135deg)}
.method>form{padding:1rem 0 .25rem}
.create{margin-top:1rem}
.create>summary{display:block;width:fit-content;margin:0 auto;padding:.125rem .25rem;border-radius:.25rem;color:var(--link);font-size:.875rem;text-align:center;cursor:pointer}
.create>summary:hover{text-decoration:underline}
.create>form{padding:.75rem 0 .25rem}
.hint{margin:0 0 .75rem;font-size:.875rem;text-align:left}
.divider{display:flex;align-items:center;gap:.75rem;margin:1.25rem 0;color:var(--muted);font-size:.875rem}
.divider::before,.divider::after{content:"";flex:1;border-top:1px solid var(--border)}
.error{margin:0 0 1.5rem;padding:.75rem 1rem;border:1px solid var(--danger-border);border-radius:.5rem;background:var(--danger-bg);color:var(--danger-fg);text-align:left}
form .error{margin:.75rem 0 0}
.error[hidden]{display:none}
a{color:var(--link)}
.secondary{display:block;margin:1rem 0 0;text-align:center}
:focus-visible{outline:2px solid var(--focus);outline-offset:2px}
input:focus-visible{outline-offset:0;border-color:var(--focus)}
@media (max-width:30rem){main{justify-content:flex-start;padding:2.5rem .75rem 1.5rem}.card{padding:1.5rem 1.25rem}}
`

/** The CSP source of an inline <style>'s exact text. */
function sha256Source(text: string): string {
  return `'sha256-${toBase64(sha256Sync(text))}'`
}

export const BASE_CSS_HASH = sha256Source(BASE_CSS)

/** Hashes of theme sheets seen before: few distinct ones exist per app (one per theme and provider list). */
const themeHashes = new Map<string, string>()
const MAX_THEME_HASHES = 64

/** The CSP source of a theme sheet, computed once per distinct text. */
export function themeCssHash(css: string): string {
  let hash = themeHashes.get(css)
  if (hash === undefined) {
    hash = sha256Source(css)
    if (themeHashes.size >= MAX_THEME_HASHES) themeHashes.clear()
    themeHashes.set(css, hash)
  }
  return hash
}
