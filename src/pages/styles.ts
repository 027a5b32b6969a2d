// The pages' CSS: one static sheet (its CSP hash computed once, at load) and the small theme sheet built from the
// checked theme and provider colours (its hash cached per distinct text).
import { createHash } from "node:crypto"

/**
 * Colours: light by default; `.__next-auth-theme-dark` always dark, `.__next-auth-theme-auto` dark when the system
 * prefers it (the body class names are Auth.js's, so an app's own CSS that targets them keeps working). Text pairs
 * meet WCAG AA (4.5:1) in both schemes.
 */
const DARK = "--page:#0d1117;--card:#161b22;--fg:#e6edf3;--muted:#9198a1;--border:#3d444d;--input-bg:#0d1117;--input-border:#656c76;--link:#4493f8;--focus:#4493f8;--danger-bg:#25171c;--danger-border:#da3633;--danger-fg:#ffa198;color-scheme:dark"

export const BASE_CSS = `:root{--page:#f6f8fa;--card:#fff;--fg:#1f2328;--muted:#59636e;--border:#d1d9e0;--input-bg:#fff;--input-border:#818b98;--link:#0969da;--focus:#0969da;--brand:#346df1;--button-text:#fff;--danger-bg:#ffebe9;--danger-border:#cf222e;--danger-fg:#a40e26;color-scheme:light}
.__next-auth-theme-dark{${DARK}}
@media (prefers-color-scheme:dark){.__next-auth-theme-auto{${DARK}}}
*{box-sizing:border-box}
body{margin:0;background:var(--page);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;-webkit-text-size-adjust:100%}
main{min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;padding:2rem 1rem}
.brand-logo{display:block;max-width:12rem;max-height:4.5rem;margin:0 auto 1.5rem}
.card{width:100%;max-width:24rem;background:var(--card);border:1px solid var(--border);border-radius:.75rem;padding:2rem 1.75rem;box-shadow:0 1px 3px rgba(31,35,40,.08),0 8px 24px rgba(31,35,40,.06)}
h1{margin:0 0 1.5rem;font-size:1.5rem;line-height:1.25;font-weight:600;text-align:center}
p{margin:0 0 1.5rem;color:var(--muted);text-align:center}
form{margin:0}
label{display:block;margin:0 0 .375rem;font-size:.875rem;font-weight:600}
input{display:block;width:100%;margin:0 0 1rem;padding:.625rem .75rem;border:1px solid var(--input-border);border-radius:.5rem;background:var(--input-bg);color:var(--fg);font:inherit}
input::placeholder{color:var(--muted);opacity:1}
.button{display:flex;align-items:center;justify-content:center;gap:.75rem;width:100%;min-height:2.75rem;margin:0;padding:.625rem 1rem;border:1px solid transparent;border-radius:.5rem;background:var(--brand);color:var(--button-text);font:inherit;font-weight:600;line-height:1.25;text-align:center;text-decoration:none;cursor:pointer}
.button:hover{filter:brightness(1.1)}
.button:disabled{opacity:.65;cursor:default;filter:none}
.providers{display:grid;gap:.75rem}
.provider{background:var(--p-bg,var(--card));color:var(--p-text,var(--fg));border-color:var(--p-border,var(--border))}
.provider img{flex:none;width:1.25rem;height:1.25rem}
.divider{display:flex;align-items:center;gap:.75rem;margin:1.5rem 0;color:var(--muted);font-size:.875rem}
.divider::before,.divider::after{content:"";flex:1;border-top:1px solid var(--border)}
.error{margin:0 0 1.5rem;padding:.75rem 1rem;border:1px solid var(--danger-border);border-radius:.5rem;background:var(--danger-bg);color:var(--danger-fg);text-align:left}
form .error{margin:1rem 0 0}
.error[hidden]{display:none}
a{color:var(--link)}
.secondary{display:block;margin:1rem 0 0;text-align:center}
:focus-visible{outline:2px solid var(--focus);outline-offset:2px}
input:focus-visible{outline-offset:0;border-color:var(--focus)}
@media (max-width:30rem){main{justify-content:flex-start;padding:2.5rem .75rem 1.5rem}.card{padding:1.5rem 1.25rem}}
`

/** The CSP source of an inline <style>'s exact text. */
function sha256Source(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`
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
