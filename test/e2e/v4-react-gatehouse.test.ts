// gatehouse/v4/react in headless Chromium against Gatehouse's next-auth 4 routes (gatehouse/v4's NextAuth as a
// pages-router API route, the options unchanged from next-auth 4's): the scenarios of v4-react.test.ts, with the same
// expected answers, for the page on gatehouse/v4/react and on next-auth/react.
import { v4ReactSuite } from "./support/v4-react-suite.js"

v4ReactSuite("gatehouse", "gatehouse/v4's NextAuth")
