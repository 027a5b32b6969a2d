// HTML helpers shared by the demo's pages and its OpenID Provider: escaping and one page layout with its CSS.
import type { IncomingMessage } from "node:http"

/** Escapes text for HTML content and double- or single-quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

const CSS = `
:root{color-scheme:light dark;--bg:#f6f8fa;--fg:#1f2328;--muted:#59636e;--card:#fff;--line:#d1d9e0;--accent:#2557d6;--button:#2557d6;--code:#eff2f5;--error:#cf222e}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--card:#161b22;--line:#3d444d;--accent:#58a6ff;--button:#1f6feb;--code:#262c36;--error:#ff7b72}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:center;padding:.75rem 1.25rem;border-bottom:1px solid var(--line);background:var(--card)}
nav .brand{font-weight:600;margin-right:auto}
a{color:var(--accent)}
main{max-width:46rem;margin:2rem auto;padding:0 1.25rem}
main.card{max-width:26rem;background:var(--card);border:1px solid var(--line);border-radius:.75rem;padding:1.5rem 1.75rem;margin-top:3rem}
h1{font-size:1.6rem;margin:.25rem 0 1rem}h2{font-size:1.2rem;margin:2rem 0 .5rem}
.eyebrow{margin:0;color:var(--muted);font-size:.85rem;text-transform:uppercase;letter-spacing:.05em}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}
code{background:var(--code);padding:.1em .3em;border-radius:.25rem}
pre{background:var(--code);padding:1rem;border-radius:.5rem;overflow:auto;white-space:pre-wrap;word-break:break-all}
label{display:block;margin:.75rem 0 .25rem;font-weight:500}
input[type=text],input[type=password],input[type=email]{width:100%;padding:.55rem .7rem;border:1px solid var(--line);border-radius:.4rem;background:var(--bg);color:var(--fg);font:inherit}
button,.button{display:inline-block;margin-top:1rem;padding:.55rem 1rem;border:0;border-radius:.4rem;background:var(--button);color:#fff;font:inherit;font-weight:500;cursor:pointer;text-decoration:none}
button.secondary{background:transparent;color:var(--fg);border:1px solid var(--line)}
form.inline{display:inline}form.inline button{margin:0 0 0 .5rem;padding:.2rem .6rem;font-size:.9rem}
.error{color:var(--error)}
.banner{background:var(--card);border:1px solid var(--accent);border-left-width:4px;border-radius:.5rem;padding:.75rem 1rem}
.muted{color:var(--muted)}
ul.options li{margin:.35rem 0}
article.mail{background:var(--card);border:1px solid var(--line);border-radius:.6rem;padding:1rem 1.25rem;margin:1rem 0}
article.mail h2{margin:0 0 .25rem}
article.mail dl{display:grid;grid-template-columns:auto 1fr;gap:0 .75rem;margin:.25rem 0 .75rem;color:var(--muted);font-size:.9rem}
article.mail dd{margin:0}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
`

/** A complete page: the shared CSS, a title, optional navigation and the body markup. */
export function layout(title: string, body: string, nav = ""): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="icon" href="data:,"><style>${CSS}</style></head>
<body>${nav}${body}</body></html>`
}

/** A small urlencoded form body (16 KiB at most; the demo's own forms are a few fields). */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > 16 * 1024) throw new Error("form too large")
    chunks.push(chunk as Buffer)
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"))
}
