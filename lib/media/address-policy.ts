// Which network addresses a server-side fetch may reach (docs/features.md#image-links). An image link in a
// message makes the server fetch a URL a user chose, so every address it would connect to is checked first:
// loopback, private, shared (CGNAT), link-local (cloud metadata at 169.254.169.254), unique-local, unspecified,
// multicast, reserved and documentation ranges are refused, in IPv4 and IPv6, and an IPv6 address that carries an
// IPv4 one (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) is judged by the
// IPv4 address inside it.
import { isIP } from "node:net";

/** Why an address is refused, as the end of "it points to …"; null when it is a public address. */
export type AddressProblem = string | null;

interface V4Range {
  base: number;
  bits: number;
  what: string;
}

const v4 = (text: string, bits: number, what: string): V4Range => ({ base: ipv4ToNumber(text), bits, what });

const V4_BLOCKED: V4Range[] = [
  v4("0.0.0.0", 8, "an unspecified address"),
  v4("10.0.0.0", 8, "a private address"),
  v4("100.64.0.0", 10, "a private address (shared CGNAT space)"),
  v4("127.0.0.0", 8, "a loopback address"),
  v4("169.254.0.0", 16, "a link-local address (where cloud metadata services live)"),
  v4("172.16.0.0", 12, "a private address"),
  v4("192.0.0.0", 24, "a reserved address"),
  v4("192.0.2.0", 24, "a documentation address"),
  v4("192.168.0.0", 16, "a private address"),
  v4("198.18.0.0", 15, "a reserved address"),
  v4("198.51.100.0", 24, "a documentation address"),
  v4("203.0.113.0", 24, "a documentation address"),
  v4("224.0.0.0", 4, "a multicast address"),
  v4("240.0.0.0", 4, "a reserved address"),
];

function ipv4ToNumber(text: string): number {
  return text.split(".").reduce((value, octet) => value * 256 + Number(octet), 0);
}

function v4Problem(address: number): AddressProblem {
  for (const range of V4_BLOCKED) {
    const size = 2 ** (32 - range.bits);
    if (Math.floor(address / size) === Math.floor(range.base / size)) return range.what;
  }
  return null;
}

/** The 8 groups of an IPv6 address (an embedded dotted quad included); null when it is not one. */
export function ipv6Groups(text: string): number[] | null {
  const address = text.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (isIP(address) !== 6) return null;
  let head = address;
  const tailGroups: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted?.[1]) {
    const value = ipv4ToNumber(dotted[1]);
    tailGroups.push(Math.floor(value / 65536), value % 65536);
    head = address.slice(0, -dotted[1].length);
    if (!head.endsWith("::")) head = head.slice(0, -1); // the ":" before the dotted quad
  }
  const [left = "", right] = head.split("::");
  const parse = (part: string) =>
    part === "" ? [] : part.split(":").map((group) => Number.parseInt(group, 16));
  const leftGroups = parse(left);
  const rightGroups = right === undefined ? [] : parse(right);
  const missing = 8 - leftGroups.length - rightGroups.length - tailGroups.length;
  if (right === undefined && missing !== 0) return null;
  const groups = [...leftGroups, ...new Array(Math.max(0, missing)).fill(0), ...rightGroups, ...tailGroups];
  return groups.length === 8 &&
    groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff)
    ? groups
    : null;
}

function v6Problem(groups: number[]): AddressProblem {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const embedded = g6 * 65536 + g7;
  const firstFiveZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (firstFiveZero && g5 === 0 && g6 === 0) {
    if (g7 === 0) return "an unspecified address";
    if (g7 === 1) return "a loopback address";
  }
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible), ::ffff:0:a.b.c.d (translated), 64:ff9b::a.b.c.d (NAT64).
  if (firstFiveZero && (g5 === 0xffff || g5 === 0))
    return v4Problem(embedded) ?? (g5 === 0 ? "a reserved address" : null);
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) return v4Problem(embedded);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0)
    return v4Problem(embedded);
  // 6to4: 2002:AABB:CCDD::/48 carries the IPv4 address AA.BB.CC.DD.
  if (g0 === 0x2002) return v4Problem(g1 * 65536 + g2);
  if (g0 === 0x2001 && g1 === 0) return "a reserved address (Teredo)";
  if (g0 === 0x2001 && g1 === 0xdb8) return "a documentation address";
  if ((g0 & 0xffc0) === 0xfe80) return "a link-local address";
  if ((g0 & 0xffc0) === 0xfec0) return "a site-local address";
  if ((g0 & 0xfe00) === 0xfc00) return "a unique-local (private) address";
  if ((g0 & 0xff00) === 0xff00) return "a multicast address";
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return "a reserved address";
  return null;
}

/** Why a fetch must not connect to `address` (an IPv4 or IPv6 literal); null for a public address. */
export function addressProblem(address: string): AddressProblem {
  const bare = address.replace(/^\[|\]$/g, "");
  const family = isIP(bare);
  if (family === 4) return v4Problem(ipv4ToNumber(bare));
  if (family === 6) {
    const groups = ipv6Groups(bare);
    return groups ? v6Problem(groups) : "an address that cannot be read";
  }
  return "an address that cannot be read";
}
