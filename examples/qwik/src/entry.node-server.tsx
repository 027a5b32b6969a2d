// The Node.js server: Qwik City's router behind node:http, on PORT (default 3000) and HOST (default localhost).
import { createServer } from "node:http"
import { createQwikCity } from "@builder.io/qwik-city/middleware/node"
import qwikCityPlan from "@qwik-city-plan"
import render from "./entry.ssr"

const { router, notFound, staticFile } = createQwikCity({ render, qwikCityPlan })

const port = Number(process.env.PORT ?? 3000)
createServer((req, res) => {
  staticFile(req, res, () => router(req, res, () => notFound(req, res, () => {})))
}).listen(port, process.env.HOST ?? "localhost", () => {
  console.log(`Qwik example listening on http://localhost:${port}`)
})
