// Forwarding headers over real HTTP: a server with the scrubber installed sees a client's X-Forwarded-For (and
// -Proto, -Host) only when the client is a configured proxy. Sign-in limits key on this address, so a new
// X-Forwarded-For per request gains nothing.
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { dropUntrustedForwarding, isTrustedPeer, trustedProxyBlockList } from "@/lib/api/client-address";
import { parseEnvironment } from "@/lib/config/env";

function serverSeeing(trusted: string[]): Promise<{ server: Server; url: string }> {
  const proxies = trustedProxyBlockList(trusted);
  const server = createServer((request: IncomingMessage, response) => {
    dropUntrustedForwarding(request, proxies);
    response.setHeader("content-type", "application/json");
    response.end(
      JSON.stringify({
        forwardedFor: request.headers["x-forwarded-for"] ?? null,
        forwardedProto: request.headers["x-forwarded-proto"] ?? null,
        forwardedHost: request.headers["x-forwarded-host"] ?? null,
      }),
    );
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` }),
    ),
  );
}

function get(url: string, headers: Record<string, string>): Promise<Record<string, string | null>> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers }, (response) => {
      let text = "";
      response.on("data", (chunk) => {
        text += chunk;
      });
      response.on("end", () => resolve(JSON.parse(text)));
    });
    request.on("error", reject);
    request.end();
  });
}

const spoofed = {
  "x-forwarded-for": "203.0.113.9",
  "x-forwarded-proto": "https",
  "x-forwarded-host": "evil.example",
};

describe("forwarding headers", () => {
  let untrusting: { server: Server; url: string };
  let trusting: { server: Server; url: string };

  beforeAll(async () => {
    untrusting = await serverSeeing([]);
    trusting = await serverSeeing(["127.0.0.1", "10.0.0.0/8"]);
  });

  afterAll(async () => {
    await Promise.all([untrusting, trusting].map(({ server }) => new Promise((r) => server.close(r))));
  });

  test("from a peer that is not a proxy: dropped, whatever it claims", async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const seen = await get(untrusting.url, { ...spoofed, "x-forwarded-for": `203.0.113.${attempt}` });
      expect(seen).toEqual({ forwardedFor: null, forwardedProto: null, forwardedHost: null });
    }
  });

  test("from a configured proxy: kept", async () => {
    expect(await get(trusting.url, spoofed)).toEqual({
      forwardedFor: "203.0.113.9",
      forwardedProto: "https",
      forwardedHost: "evil.example",
    });
  });

  test("the list: addresses and CIDR ranges, IPv4 peers on dual-stack sockets, nonsense refused", () => {
    const list = trustedProxyBlockList(
      parseEnvironment({ TRUSTED_PROXIES: " 10.1.0.0/16 , 192.0.2.7, ::1 " }).TRUSTED_PROXIES,
    );
    expect(isTrustedPeer("10.1.200.3", list)).toBe(true);
    expect(isTrustedPeer("::ffff:10.1.2.3", list)).toBe(true);
    expect(isTrustedPeer("192.0.2.7", list)).toBe(true);
    expect(isTrustedPeer("::1", list)).toBe(true);
    expect(isTrustedPeer("10.2.0.1", list)).toBe(false);
    expect(isTrustedPeer(undefined, list)).toBe(false);
    expect(() => trustedProxyBlockList(["not-an-address"])).toThrow(/TRUSTED_PROXIES/);
  });
});
