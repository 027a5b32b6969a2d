// gatehouse/v4/react in headless Chromium against next-auth 4.24.15's own routes (next-auth/next's NextAuth on
// node:http), each scenario run with the page on gatehouse/v4/react and on next-auth/react itself: sign-in and its
// answers, useSession's states, update, sign-out, the nextauth.message tab sync, required, basePath, polling.
import { v4ReactSuite } from "./support/v4-react-suite.js"

v4ReactSuite("next-auth", "next-auth 4.24.15")
