// HTML helpers for the built-in pages: escaping and the document shell with inlined CSS.
import type { Theme } from "../types.js"

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ESCAPES[c] as string)
}

const CSS = `
:root{--bg:#fff;--fg:#1f2328;--muted:#6e7781;--border:#d0d7de;--brand:#346df1;--button-text:#fff;--danger:#cf222e}
.__next-auth-theme-dark{--bg:#0d1117;--fg:#e6edf3;--muted:#8d96a0;--border:#30363d}
@media (prefers-color-scheme:dark){.__next-auth-theme-auto{--bg:#0d1117;--fg:#e6edf3;--muted:#8d96a0;--border:#30363d}}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:var(--bg);color:var(--fg)}
.page{min-height:100vh;display:flex;align-items:center;justify-content:center;padding:2rem}
.card{width:100%;max-width:22rem;border:1px solid var(--border);border-radius:.75rem;padding:2rem}
h1{font-size:1.25rem;margin:0 0 1rem}p{margin:.5rem 0 1rem;color:var(--muted)}
label{display:block;font-size:.875rem;margin:.75rem 0 .25rem}
input{width:100%;padding:.55rem .7rem;border:1px solid var(--border);border-radius:.4rem;background:transparent;color:inherit;font:inherit}
button,.button{display:block;width:100%;margin-top:1rem;padding:.6rem;border:0;border-radius:.4rem;background:var(--brand);color:var(--button-text);font:inherit;cursor:pointer;text-align:center;text-decoration:none}
.error{border:1px solid var(--danger);color:var(--danger);border-radius:.4rem;padding:.5rem .75rem;margin-bottom:1rem}
hr{border:0;border-top:1px solid var(--border);margin:1.5rem 0}.logo{display:block;max-height:4rem;margin:0 auto 1rem}
`

/** Wraps page content in a full document; the body class selects the colour scheme. */
export function documentShell(title: string, content: string, theme: Theme): string {
  const scheme = theme.colorScheme ?? "auto"
  const brand = theme.brandColor ? `:root{--brand:${escapeHtml(theme.brandColor)}}` : ""
  const buttonText = theme.buttonText ? `:root{--button-text:${escapeHtml(theme.buttonText)}}` : ""
  const logo = theme.logo ? `<img class="logo" src="${escapeHtml(theme.logo)}" alt="">` : ""
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1.0"><title>${escapeHtml(title)}</title><style>${CSS}${brand}${buttonText}</style></head><body class="__next-auth-theme-${escapeHtml(scheme)}"><div class="page"><div class="card">${logo}${content}</div></div></body></html>`
}
