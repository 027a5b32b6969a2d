// The demo's own pages: home (session JSON, passkeys), /protected, /inbox and the /react shell. Pure functions → HTML.
import type { AuthenticatorInfo } from "../src/authenticators.js"
import type { Session } from "../src/index.js"
import { PASSWORD_ACCOUNT } from "./auth.js"
import { escapeHtml as e, layout } from "./html.js"
import { OIDC_ACCOUNT } from "./oidc.js"
import type { CaughtMail } from "./smtp.js"

/** What every page knows: the session (null when signed out), how many mails wait, where the database is. */
export interface PageContext {
  session: Session | null
  mailCount: number
  persistent: boolean
}

function nav(ctx: PageContext): string {
  const account = ctx.session
    ? `<a id="nav-signout" href="/auth/signout">Sign out</a>`
    : `<a id="nav-signin" href="/auth/signin?callbackUrl=%2F">Sign in</a>`
  return `<nav><span class="brand">Gatehouse demo</span>
<a href="/">Home</a><a href="/protected">Protected page</a><a href="/react">useSession (React)</a>
<a id="nav-inbox" href="/inbox">Inbox (${ctx.mailCount})</a>${account}</nav>`
}

/** The four ways in, with the demo accounts; shown on the home page when signed out. */
function signInOptions(): string {
  return `<ul class="options" id="sign-in-options">
<li><strong>Password</strong>: user <code>${PASSWORD_ACCOUNT.username}</code>, password <code>${PASSWORD_ACCOUNT.password}</code>.</li>
<li><strong>Local OIDC</strong>: the demo runs its own OpenID Provider. Press <em>Sign in with Local OIDC</em>; its login page comes filled in
  (<code>${OIDC_ACCOUNT.login}</code> / <code>${OIDC_ACCOUNT.password}</code>).</li>
<li><strong>E-mail</strong>: type any address. The demo catches the e-mail and shows it in its <a href="/inbox">inbox</a>; click the link there.</li>
<li><strong>Passkey</strong>: press <em>Create a passkey</em> and give any e-mail; next time <em>Sign in with a passkey</em> alone signs you in.</li>
</ul>`
}

function passkeySection(passkeys: readonly AuthenticatorInfo[]): string {
  const rows = passkeys
    .map(
      (
        p,
      ) => `<li data-credential-id="${e(p.credentialID)}"><code>${e(p.credentialID.slice(0, 16))}…</code> ${e(p.credentialDeviceType)}, used ${p.counter} times
  <form class="inline" method="post" action="/passkeys/remove"><input type="hidden" name="id" value="${e(p.credentialID)}"><button class="secondary">Remove</button></form></li>`,
    )
    .join("")
  return `<h2>Your passkeys</h2>${rows ? `<ul id="passkeys">${rows}</ul>` : `<p id="passkeys-empty">None yet.</p>`}
<p><button id="add-passkey" type="button">Add a passkey</button> <span id="passkey-status" role="status"></span></p>
<script type="module">
  import { configure, signIn } from "/webauthn.js"
  configure({ basePath: "/auth" })
  document.getElementById("add-passkey").addEventListener("click", async () => {
    const answer = await signIn("passkey", { action: "register", redirect: false, redirectTo: "/" })
    if (answer?.ok) location.reload()
    else document.getElementById("passkey-status").textContent = "Could not add a passkey (" + (answer?.code ?? answer?.error) + ")."
  })
</script>`
}

export function homePage(ctx: PageContext, passkeys: readonly AuthenticatorInfo[]): string {
  const user = ctx.session?.user
  const intro = ctx.session
    ? `<p id="signed-in">Signed in as <strong>${e(user?.name ?? user?.email ?? "")}</strong>${user?.email ? ` (${e(user.email)})` : ""}.</p>`
    : `<p id="signed-out">You are not signed in. <a class="button" href="/auth/signin?callbackUrl=%2F">Sign in</a></p>${signInOptions()}`
  const storage = ctx.persistent
    ? "Sessions are rows in PGlite on disk: restart the demo and you stay signed in."
    : "Running with <code>--memory</code>: users and sessions end when the demo stops."
  return layout(
    "Gatehouse demo",
    `<main><h1>Gatehouse demo</h1>${intro}
<h2>Session</h2><p class="muted">What <code>GET /auth/session</code> answers for this browser. ${storage}</p>
<pre id="session">${e(JSON.stringify(ctx.session, null, 2))}</pre>
${ctx.session ? passkeySection(passkeys) : ""}</main>`,
    nav(ctx),
  )
}

export function protectedPage(ctx: PageContext): string {
  const user = ctx.session?.user
  return layout(
    "Protected page",
    `<main><h1>Protected page</h1><p id="protected">Only signed-in users see this page. You are <strong>${e(user?.name ?? user?.email ?? "")}</strong>.</p>
<p class="muted">Signed out, <code>/protected</code> redirects to the sign-in page and comes back here afterwards.</p></main>`,
    nav(ctx),
  )
}

function mailArticle(mail: CaughtMail): string {
  const link = mail.links[0]
  return `<article class="mail" data-mail-id="${e(mail.id)}">
<h2 class="mail-subject">${e(mail.subject)}</h2>
<dl><dt>To</dt><dd class="mail-to">${e(mail.to.join(", "))}</dd><dt>From</dt><dd class="mail-from">${e(mail.from)}</dd>
<dt>Received</dt><dd><time datetime="${e(mail.receivedAt)}">${e(mail.receivedAt.replace("T", " ").slice(0, 19))} UTC</time></dd></dl>
${link ? `<p><a class="mail-link button" href="${e(link)}">Open the sign-in link</a></p>` : ""}
<details><summary>Text of the e-mail</summary><pre class="mail-text">${e(mail.text)}</pre></details>
</article>`
}

/** The inbox; `justSent` when the verify-request redirect brought the user here after asking for a link. */
export function inboxPage(ctx: PageContext, mails: readonly CaughtMail[], justSent: boolean): string {
  const banner = justSent
    ? `<p id="check-email" class="banner" role="status"><strong>Check your e-mail.</strong> The sign-in link was sent; the demo caught it,
and it is the newest message below. Click <em>Open the sign-in link</em>.</p>`
    : ""
  return layout(
    "Demo inbox",
    `<main><h1>Demo inbox</h1>${banner}
<p class="muted">Every e-mail the demo sends goes to its local SMTP catcher and shows up here, newest first (kept in memory, at most 50).
Nothing leaves this machine. <a href="/inbox">Refresh</a> · <a href="/inbox.json">JSON</a></p>
<section id="mails">${mails.length ? mails.map(mailArticle).join("\n") : `<p id="inbox-empty">No e-mail yet. Sign in with <em>Email</em> to get one.</p>`}</section></main>`,
    nav(ctx),
  )
}

export function reactPage(ctx: PageContext): string {
  return layout(
    "useSession (React)",
    `<main><h1>useSession in action</h1>
<p class="muted">A small React component, bundled at start, inside <code>&lt;SessionProvider basePath="/auth"&gt;</code>. It reads the session with
<code>useSession()</code> from <code>gatehouse/react</code> and signs out with <code>signOut()</code> from <code>gatehouse/client</code>, without a page load.</p>
<div id="root"><p id="react-status" data-status="loading">Loading…</p></div>
<script type="module" src="/react.js"></script></main>`,
    nav(ctx),
  )
}

export function notFoundPage(ctx: PageContext): string {
  return layout("Not found", `<main><h1>Not found</h1><p><a href="/">Back to the demo</a></p></main>`, nav(ctx))
}
