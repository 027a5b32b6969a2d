// Every page inside SessionProvider, seeded with the session a page's getServerSideProps returned (if any), so that
// useSession has it on the first render (the page gets it as a prop too).
import type { Session } from "gatehouse/v4"
import { SessionProvider } from "gatehouse/v4/react"
import type { AppProps } from "next/app"

export default function App({ Component, pageProps }: AppProps<{ session?: Session | null }>) {
  return (
    <SessionProvider session={pageProps.session}>
      <Component {...pageProps} />
    </SessionProvider>
  )
}
