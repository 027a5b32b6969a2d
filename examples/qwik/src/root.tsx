// The document around every route.
import { component$ } from "@builder.io/qwik"
import { QwikCityProvider, RouterOutlet } from "@builder.io/qwik-city"

export default component$(() => (
  <QwikCityProvider>
    <head>
      <meta charset="utf-8" />
      <title>Gatehouse with Qwik</title>
    </head>
    <body>
      <RouterOutlet />
    </body>
  </QwikCityProvider>
))
