// The app shell: a navigation bar over the file routes of src/routes/.
import { A, Router } from "@solidjs/router"
import { FileRoutes } from "@solidjs/start/router"
import { Suspense } from "solid-js"

export default function App() {
  return (
    <Router
      root={(props) => (
        <>
          <nav>
            <A href="/">Home</A> · <A href="/protected">Protected</A>
          </nav>
          <Suspense>{props.children}</Suspense>
        </>
      )}
    >
      <FileRoutes />
    </Router>
  )
}
