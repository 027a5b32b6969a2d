// Browser code of /react (bundled by esbuild at start): SessionProvider + useSession, sign-in and sign-out buttons.
import { createElement as h, type ReactElement } from "react"
import { createRoot } from "react-dom/client"
import { signIn, signOut } from "../src/client/index.js"
import { SessionProvider, useSession } from "../src/react/index.js"

function SessionStatus(): ReactElement {
  const { data, status } = useSession()
  const user = data?.user
  return h(
    "section",
    { id: "react-session" },
    h("p", { id: "react-status", "data-status": status }, "useSession() status: ", h("strong", null, status)),
    status === "authenticated"
      ? h(
          "div",
          null,
          h(
            "p",
            { id: "react-user" },
            "Signed in as ",
            h("strong", { id: "react-user-name" }, user?.name ?? ""),
            " ",
            h("span", { id: "react-user-email" }, user?.email ?? ""),
          ),
          h(
            "button",
            { id: "react-sign-out", type: "button", onClick: () => void signOut({ redirect: false }) },
            "Sign out (stay on this page)",
          ),
        )
      : status === "unauthenticated"
        ? h(
            "button",
            { id: "react-sign-in", type: "button", onClick: () => void signIn(undefined, { redirectTo: "/react" }) },
            "Sign in",
          )
        : null,
    h("pre", { id: "react-session-json" }, JSON.stringify(data, null, 2)),
  )
}

createRoot(document.getElementById("root")!).render(h(SessionProvider, { basePath: "/auth" }, h(SessionStatus)))
