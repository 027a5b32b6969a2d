// adapter-node: `vite build` writes a Node.js server to build/, started with `node build`.
import adapter from "@sveltejs/adapter-node"

/** @type {import("@sveltejs/kit").Config} */
export default {
  kit: { adapter: adapter() },
}
