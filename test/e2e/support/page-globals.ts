// What the test pages put on `window` for page.evaluate (types only; the pages fill these in).
import type * as client from "../../../src/client/index.js"
import type { UpdateSession } from "../../../src/react/index.js"

declare global {
  interface Window {
    /** The gatehouse/client module (client pages) or the same helpers from gatehouse/react (React pages). */
    gatehouse: typeof client
    /** React pages: `useSession().update` of the page's component. */
    sessionUpdate?: UpdateSession
    /** React pages: every status useSession reported, in order (repeats collapsed). */
    statusHistory?: string[]
    /** React pages with `required`: how many times onUnauthenticated ran. */
    unauthenticatedCalls?: number
    /** Set by a test to tell whether the page was reloaded since. */
    marker?: string
  }
}
