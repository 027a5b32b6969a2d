// Fuzz (RL-02): the client address the sign-in rate limit keys on. Whatever a client puts in front of what the proxies
// append, a configured header yields the address the outermost trusted proxy saw; without a configured header no
// header ever picks the address; and whatever comes back is an IP address or nothing.
import { isIP } from "node:net"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { ClientAddressRule } from "../../src/pipeline-types.js"
import { clientAddressOf } from "../../src/request/parse.js"
import type { HeaderReader } from "../../src/request/input.js"
import { fuzz, fuzzTimeout, headerText, wildString } from "./arbitraries.js"

const FILE = "test/fuzz/client-address.test.ts"
const PROXY_HEADERS = ["x-forwarded-for", "forwarded", "x-real-ip", "cf-connecting-ip", "fly-client-ip"] as const

/** Any raw header value, commas and all (a plain reader: node hands values through without the Headers checks). */
const reader = (values: Partial<Record<string, string>>): HeaderReader => ({
  get: (name) => values[name.toLowerCase()] ?? null,
})

const ip = fc.oneof(fc.ipV4(), fc.ipV6())

/** What a client may send in a forwarding header: addresses, junk, separators, nothing. */
const clientPart = fc.oneof(
  fc
    .array(fc.oneof(ip, wildString(12), fc.constantFrom("", " ", "unknown", "[::1]", "127.0.0.1:80", ",")), {
      maxLength: 5,
    })
    .map((parts) => parts.join(",")),
  headerText(40),
)

describe("RL-02 client address (property)", () => {
  it(
    "RL-02: with { header, proxies: n } the address is the one the outermost of n proxies appended, whatever the client sent before it",
    async () => {
      await fuzz(
        FILE,
        fc.asyncProperty(
          fc.option(clientPart, { nil: undefined }),
          fc.array(ip, { minLength: 1, maxLength: 4 }),
          fc.option(ip, { nil: undefined }),
          async (sent, appended, socket) => {
            const value = [...(sent === undefined ? [] : [sent]), ...appended].join(", ")
            const rule: ClientAddressRule = { header: "x-forwarded-for", proxies: appended.length }
            expect(clientAddressOf(socket, reader({ "x-forwarded-for": value }), rule).address).toBe(appended[0])
          },
        ),
      )
    },
    fuzzTimeout(1),
  )

  it(
    "RL-02: without a configured header, no header value ever becomes the address: the socket's or none",
    async () => {
      const headers = fc.dictionary(fc.constantFrom(...PROXY_HEADERS), fc.oneof(ip, clientPart), {
        maxKeys: PROXY_HEADERS.length,
      })
      const socket = fc.option(
        fc.oneof(ip, fc.constantFrom("127.0.0.1", "::1", "10.0.0.1", "::ffff:192.168.0.1", "junk")),
        { nil: undefined },
      )
      await fuzz(
        FILE,
        fc.asyncProperty(
          headers,
          socket,
          fc.constantFrom<ClientAddressRule>("default", "socket"),
          async (values, peer, rule) => {
            const { address } = clientAddressOf(peer, reader(values), rule)
            if (address !== undefined) expect(address).toBe(peer)
          },
        ),
      )
    },
    fuzzTimeout(1),
  )

  it(
    "RL-02: a configured header yields an IP address or nothing, for any value and any proxies",
    async () => {
      await fuzz(
        FILE,
        fc.asyncProperty(clientPart, fc.integer({ min: 1, max: 4 }), async (value, proxies) => {
          const { address } = clientAddressOf("203.0.113.7", reader({ "x-real-ip": value }), {
            header: "x-real-ip",
            proxies,
          })
          if (address !== undefined) expect(isIP(address)).not.toBe(0)
        }),
      )
    },
    fuzzTimeout(1),
  )
})
