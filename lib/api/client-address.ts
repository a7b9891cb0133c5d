// Which forwarding headers to believe. `X-Forwarded-For` and friends are whatever the sender wrote unless the
// sender is a proxy of ours: from any other peer they are dropped before Next.js sees the request, and Next.js
// then fills in the peer's own address and protocol. Per-address limits (better-auth's sign-in limit) so count
// the real peer, and a new `X-Forwarded-For` per request buys nothing. TRUSTED_PROXIES lists the proxies'
// addresses or CIDR ranges, comma-separated; unset, no peer is a proxy.

import "server-only";
import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";
import { env } from "@/lib/config/env";

const FORWARDING_HEADERS = [
  "x-forwarded-for",
  "x-forwarded-proto",
  "x-forwarded-host",
  "x-forwarded-port",
  "x-real-ip",
  "forwarded",
];

export function trustedProxyBlockList(entries: string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split("/");
    const family = isIP(address) === 6 ? "ipv6" : isIP(address) === 4 ? "ipv4" : null;
    if (!family) throw new Error(`TRUSTED_PROXIES: ${entry} is not an IP address or CIDR range`);
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

export function isTrustedPeer(address: string | undefined, proxies: BlockList): boolean {
  if (!address) return false;
  // An IPv4 peer on a dual-stack socket shows as ::ffff:a.b.c.d.
  const plain = address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  const family = isIP(plain) === 6 ? "ipv6" : "ipv4";
  return proxies.check(plain, family);
}

/** Drop the forwarding headers of a request whose sender is not one of our proxies. */
export function dropUntrustedForwarding(request: IncomingMessage, proxies: BlockList): void {
  if (isTrustedPeer(request.socket?.remoteAddress, proxies)) return;
  for (const name of FORWARDING_HEADERS) delete request.headers[name];
  // rawHeaders is what some code re-reads; keep it in step.
  const raw = request.rawHeaders;
  for (let index = raw.length - 2; index >= 0; index -= 2) {
    if (FORWARDING_HEADERS.includes(raw[index].toLowerCase())) raw.splice(index, 2);
  }
}

const installed = Symbol.for("glassbox.forwardingScrubber");

/**
 * Every HTTP server of this process drops untrusted forwarding headers before its request listeners run
 * (`next start` creates its server itself, so the hook is on the server's `emit`).
 */
export async function installForwardingScrubber(): Promise<void> {
  const http = await import("node:http");
  const prototype = http.Server.prototype as unknown as Record<symbol, unknown> & {
    emit: (event: string, ...args: unknown[]) => boolean;
  };
  if (prototype[installed]) return;
  prototype[installed] = true;
  const proxies = trustedProxyBlockList(env().TRUSTED_PROXIES);
  const emit = prototype.emit;
  prototype.emit = function emitWithScrubbedHeaders(this: unknown, event: string, ...args: unknown[]) {
    if (event === "request") dropUntrustedForwarding(args[0] as IncomingMessage, proxies);
    return emit.call(this, event, ...args);
  };
}
