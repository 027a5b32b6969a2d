// gatehouse/v4/react in headless Chromium, each scenario run with the page on gatehouse/v4/react and on
// next-auth/react itself: sign-in and its answers, useSession's states, update, sign-out, the nextauth.message tab
// sync, required, basePath, polling. First against next-auth 4.24.15's own routes (next-auth/next's NextAuth on
// node:http), then against Gatehouse's next-auth 4 routes (gatehouse/v4's NextAuth as a pages-router API route, the
// options unchanged from next-auth 4's), with the same expected answers; one browser and one bundling for both.
import { v4ReactSuites } from "./support/v4-react-suite.js"

v4ReactSuites([
  { kind: "next-auth", label: "next-auth 4.24.15" },
  { kind: "gatehouse", label: "gatehouse/v4's NextAuth" },
])
