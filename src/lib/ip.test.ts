// lib/ip.ts against node:net's isIP: the same answer for fixed cases and for generated addresses, near-addresses
// and garbage built from the characters addresses are made of.
import { isIP as nodeIsIP } from "node:net"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { isIP } from "./ip.js"

const RUNS = 20_000

const same = (text: string): void => {
  expect({ text, family: isIP(text) }).toEqual({ text, family: nodeIsIP(text) })
}

describe("isIP", () => {
  it.each([
    ["1.2.3.4", 4],
    ["0.0.0.0", 4],
    ["255.255.255.255", 4],
    ["256.1.1.1", 0],
    ["01.2.3.4", 0],
    ["1.2.3", 0],
    ["1.2.3.4.5", 0],
    ["1.2.3.4 ", 0],
    ["1..3.4", 0],
    ["::", 6],
    ["::1", 6],
    ["1::", 6],
    [":::", 0],
    ["1:::2", 0],
    ["1::2::3", 0],
    ["1:2:3:4:5:6:7:8", 6],
    ["1:2:3:4:5:6:7:8:9", 0],
    ["1:2:3:4:5:6:7", 0],
    ["1:2:3:4:5:6:7::", 6],
    ["::2:3:4:5:6:7:8", 6],
    ["1:2:3:4:5:6:7::8", 0],
    ["FE80::AbCd", 6],
    ["12345::", 0],
    ["::ffff:192.0.2.1", 6],
    ["::ffff:192.0.2.256", 0],
    ["::192.0.2.1", 6],
    ["1:2:3:4:5:6:1.2.3.4", 6],
    ["1:2:3:4:5:6:7:1.2.3.4", 0],
    ["1:2:3:4:5::1.2.3.4", 6],
    ["1:2:3:4:5:6::1.2.3.4", 0],
    ["1.2.3.4::", 0],
    ["1.2.3.4::1", 0],
    ["fe80::1%eth0", 6],
    ["fe80::1%", 0],
    ["fe80::1%a%b", 0],
    ["fe80::1%en-0.1:2", 6],
    ["fe80::1%a b", 0],
    ["1.2.3.4%eth0", 0],
    ["::%1", 6],
    ["[::1]", 0],
    ["", 0],
    [":", 0],
    ["１.2.3.4", 0],
    ["1:2:3:4:5:6:7:\u00008", 0],
  ])("%j is %i, as node:net says", (text, family) => {
    expect(isIP(text)).toBe(family)
    same(text)
  })

  it("agrees with node:net on fast-check's IPv4 and IPv6 addresses, with and without zone ids", () => {
    const zone = fc.stringMatching(/^[0-9a-zA-Z.:-]{0,6}$/)
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV4Extended(), fc.ipV6()), fc.option(zone), (address, z) => {
        same(address)
        same(address.toUpperCase())
        if (z !== null) same(`${address}%${z}`)
      }),
      { numRuns: RUNS },
    )
  })

  // Near-addresses: pieces of address syntax in any order, so the generator reaches every rule (group count, one
  // gap, where an IPv4 tail may stand, octet ranges, leading zeros, zones) and the malformed forms around them.
  const piece = fc.oneof(
    fc.stringMatching(/^[0-9a-fA-F]{1,5}$/),
    fc.ipV4(),
    fc.integer({ min: 0, max: 300 }).map(String),
    fc.constantFrom(":", "::", ":::", ".", "%", "%eth0", "%1", "0", "00", "ffff", "g", " ", "[", "]", "-", "\u0660"),
  )
  const nearAddress = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(""))
  const colonJoined = fc
    .tuple(
      fc.array(fc.oneof(fc.stringMatching(/^[0-9a-fA-F]{0,5}$/), fc.ipV4()), { minLength: 1, maxLength: 10 }),
      fc.option(fc.stringMatching(/^[0-9a-zA-Z%.:-]{0,4}$/)),
    )
    .map(([groups, z]) => groups.join(":") + (z === null ? "" : `%${z}`))

  it("agrees with node:net on near-addresses", () => {
    fc.assert(fc.property(fc.oneof(nearAddress, colonJoined), same), { numRuns: RUNS })
  })

  it("agrees with node:net on arbitrary strings", () => {
    fc.assert(fc.property(fc.string({ maxLength: 45 }), same), { numRuns: RUNS })
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF:.%"), maxLength: 45 }), same), {
      numRuns: RUNS,
    })
  })
})
