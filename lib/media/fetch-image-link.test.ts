// The image-link fetcher against real listeners: every private, loopback, link-local and mapped address is
// refused before any connection (the listeners count what reaches them), by literal, by a name that resolves to
// it, and after a redirect; a good image is fetched once from the address that was checked. These tests run with
// MEDIA_FETCH_ALLOW_HOSTS unset: the few that need a local "public" server name it through the option.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { env } from "@/lib/config/env";
import { TEST_IMAGES } from "@/tests/fixtures/images";
import { addressProblem } from "./address-policy";
import { fetchImageLink, type Resolver } from "./fetch-image-link";

interface Listener {
  server: Server;
  port: number;
  connections: number;
  requests: string[];
}

type Handler = Parameters<typeof createServer>[1];

async function listen(host: string, handler: Handler): Promise<Listener | null> {
  const server = createServer(handler);
  const listener: Listener = { server, port: 0, connections: 0, requests: [] };
  server.on("connection", () => {
    listener.connections += 1;
  });
  server.on("request", (request) => listener.requests.push(request.url ?? ""));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, host, resolve);
    });
  } catch {
    return null; // e.g. no IPv6 loopback in this container
  }
  listener.port = (server.address() as AddressInfo).port;
  return listener;
}

const servePng: Handler = (_request, response) => {
  response.writeHead(200, { "content-type": "image/png" });
  response.end(TEST_IMAGES.png);
};

let trap: Listener; // 127.0.0.1: must never be reached by a refused fetch
let trapV6: Listener | null; // ::1, when the container has it
let images: Listener; // 127.0.0.1: the "public" image server, reachable only by an allowed name
let second: Listener | null; // 127.0.0.2: where a rebinding DNS answer would point

const resolverTo =
  (table: Record<string, string[]>): Resolver =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw new Error(`ENOTFOUND ${hostname}`);
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

beforeAll(async () => {
  trap = (await listen("127.0.0.1", servePng)) as Listener;
  trapV6 = await listen("::1", servePng);
  images = (await listen("127.0.0.1", (request, response) => {
    if (request.url === "/cat.png") return servePng(request, response);
    if (request.url === "/page.html") {
      response.writeHead(200, { "content-type": "text/html" });
      return response.end("<!doctype html><p>not an image</p>");
    }
    if (request.url === "/huge.png") {
      response.writeHead(200, { "content-type": "image/png" });
      return response.end(Buffer.alloc(2_048));
    }
    if (request.url === "/slow.png") return; // never answers
    const to = new URL(request.url ?? "/", "http://x").searchParams.get("to");
    if (request.url?.startsWith("/redirect") && to) {
      response.writeHead(302, { location: to });
      return response.end();
    }
    response.writeHead(404);
    response.end();
  })) as Listener;
  second = await listen("127.0.0.2", servePng);
});

afterEach(() => {
  for (const listener of [trap, trapV6, images, second]) {
    if (!listener) continue;
    listener.connections = 0;
    listener.requests.length = 0;
  }
});

afterAll(async () => {
  for (const listener of [trap, trapV6, images, second]) {
    if (!listener) continue;
    listener.server.closeAllConnections();
    await new Promise((resolve) => listener.server.close(resolve));
  }
});

describe("refused before any connection", () => {
  it("runs with MEDIA_FETCH_ALLOW_HOSTS unset", () => {
    expect(env().MEDIA_FETCH_ALLOW_HOSTS).toEqual([]);
  });

  const literal =
    (host: string, port = () => trap.port) =>
    () =>
      `http://${host}:${port()}/cat.png`;
  const cases: Array<{ name: string; url: () => string; reason: RegExp; resolver?: Resolver }> = [
    { name: "loopback 127.0.0.1", url: literal("127.0.0.1"), reason: /loopback/ },
    { name: "loopback written 127.1", url: literal("127.1"), reason: /loopback/ },
    { name: "loopback written as one number", url: literal("2130706433"), reason: /loopback/ },
    { name: "loopback written in hex", url: literal("0x7f.0.0.1"), reason: /loopback/ },
    {
      name: "IPv6 loopback [::1]",
      url: literal("[::1]", () => trapV6?.port ?? trap.port),
      reason: /loopback/,
    },
    { name: "IPv4-mapped [::ffff:127.0.0.1]", url: literal("[::ffff:127.0.0.1]"), reason: /loopback/ },
    { name: "IPv4-mapped in hex [::ffff:7f00:1]", url: literal("[::ffff:7f00:1]"), reason: /loopback/ },
    { name: "IPv4-compatible [::127.0.0.1]", url: literal("[::127.0.0.1]"), reason: /loopback/ },
    { name: "private 10.0.0.1", url: () => "http://10.0.0.1/cat.png", reason: /private/ },
    { name: "private 172.16.5.4", url: () => "http://172.16.5.4/cat.png", reason: /private/ },
    { name: "private 192.168.1.1", url: () => "http://192.168.1.1/cat.png", reason: /private/ },
    { name: "CGNAT 100.64.0.1", url: () => "http://100.64.0.1/cat.png", reason: /private/ },
    {
      name: "cloud metadata 169.254.169.254",
      url: () => "http://169.254.169.254/latest/meta-data/",
      reason: /link-local/,
    },
    {
      name: "metadata mapped [::ffff:169.254.169.254]",
      url: () => "http://[::ffff:a9fe:a9fe]/",
      reason: /link-local/,
    },
    { name: "IPv6 link-local [fe80::1]", url: () => "http://[fe80::1]/cat.png", reason: /link-local/ },
    { name: "IPv6 unique-local [fd00::1]", url: () => "http://[fd00::1]/cat.png", reason: /unique-local/ },
    { name: "unspecified 0.0.0.0", url: literal("0.0.0.0"), reason: /unspecified/ },
    { name: "unspecified [::]", url: () => "http://[::]/cat.png", reason: /unspecified/ },
    { name: "multicast 224.0.0.1", url: () => "http://224.0.0.1/cat.png", reason: /multicast/ },
    { name: "localhost, by the system resolver", url: literal("localhost"), reason: /loopback/ },
    {
      name: "a name that resolves to 127.0.0.1",
      url: literal("images.example"),
      resolver: resolverTo({ "images.example": ["127.0.0.1"] }),
      reason: /loopback/,
    },
    {
      name: "a name that resolves to ::ffff:127.0.0.1",
      url: literal("mapped.example"),
      resolver: resolverTo({ "mapped.example": ["::ffff:127.0.0.1"] }),
      reason: /loopback/,
    },
    {
      name: "a name with one public and one private address",
      url: literal("mixed.example"),
      resolver: resolverTo({ "mixed.example": ["93.184.216.34", "10.0.0.7"] }),
      reason: /private/,
    },
    { name: "a file: URL", url: () => "file:///etc/passwd", reason: /only http and https/ },
    { name: "an ftp: URL", url: () => "ftp://example.com/cat.png", reason: /only http and https/ },
  ];

  it.each(cases)("$name", async ({ url, reason, resolver }) => {
    const result = await fetchImageLink(url(), resolver ? { resolver } : {});
    expect(result).toMatchObject({ ok: false });
    expect(result.ok ? "" : result.reason).toMatch(reason);
    expect(trap.connections).toBe(0);
    expect(trapV6?.connections ?? 0).toBe(0);
  });

  it("the address policy itself, for the forms a URL never produces", () => {
    expect(addressProblem("::ffff:0:7f00:1")).toMatch(/loopback/);
    expect(addressProblem("64:ff9b::7f00:1")).toMatch(/loopback/);
    expect(addressProblem("2002:7f00:1::1")).toMatch(/loopback/);
    expect(addressProblem("fc00::1")).toMatch(/unique-local/);
    expect(addressProblem("ff02::1")).toMatch(/multicast/);
    expect(addressProblem("172.31.255.255")).toMatch(/private/);
    expect(addressProblem("172.32.0.1")).toBeNull();
    expect(addressProblem("100.128.0.1")).toBeNull();
    expect(addressProblem("93.184.216.34")).toBeNull();
    expect(addressProblem("2606:4700::1111")).toBeNull();
    expect(addressProblem("::ffff:93.184.216.34")).toBeNull();
  });
});

describe("redirects are checked hop by hop", () => {
  // images.test stands for a public server: allowed by name, so its redirects can be tested locally.
  const allowed = () => ({
    allowHosts: ["images.test"],
    resolver: resolverTo({ "images.test": ["127.0.0.1"], "evil.test": ["127.0.0.1"] }),
  });
  const redirect = (to: string) => `http://images.test:${images.port}/redirect?to=${encodeURIComponent(to)}`;

  it.each([
    { name: "to 127.0.0.1", to: () => `http://127.0.0.1:${trap.port}/cat.png`, reason: /loopback/ },
    {
      name: "to [::ffff:127.0.0.1]",
      to: () => `http://[::ffff:127.0.0.1]:${trap.port}/`,
      reason: /loopback/,
    },
    {
      name: "to 169.254.169.254",
      to: () => "http://169.254.169.254/latest/meta-data/",
      reason: /link-local/,
    },
    {
      name: "to a name that resolves to loopback",
      to: () => `http://evil.test:${trap.port}/`,
      reason: /loopback/,
    },
    { name: "to a file: URL", to: () => "file:///etc/passwd", reason: /only http and https/ },
  ])("$name: refused, the target never reached", async ({ to, reason }) => {
    const result = await fetchImageLink(redirect(to()), allowed());
    expect(result.ok ? "" : result.reason).toMatch(reason);
    expect(images.requests).toHaveLength(1);
    expect(trap.connections).toBe(0);
  });

  it(`more than ${3} redirects: refused`, async () => {
    let url = `http://images.test:${images.port}/cat.png`;
    for (let hop = 0; hop < 4; hop += 1) url = redirect(url);
    const result = await fetchImageLink(url, allowed());
    expect(result.ok ? "" : result.reason).toMatch(/more than 3 times/);
    expect(images.requests).toHaveLength(4);
  });

  it("three redirects to an allowed host: fetched", async () => {
    let url = `http://images.test:${images.port}/cat.png`;
    for (let hop = 0; hop < 3; hop += 1) url = redirect(url);
    const result = await fetchImageLink(url, allowed());
    expect(result).toMatchObject({ ok: true, finalUrl: `http://images.test:${images.port}/cat.png` });
    expect(images.requests.filter((path) => path === "/cat.png")).toHaveLength(1);
  });
});

describe("a good image link", () => {
  it("is fetched once, from the address that was checked", async () => {
    const result = await fetchImageLink(`http://images.test:${images.port}/cat.png`, {
      allowHosts: ["images.test"],
      resolver: resolverTo({ "images.test": ["127.0.0.1"] }),
    });
    expect(result).toMatchObject({
      ok: true,
      image: { kind: "image", mime: "image/png", width: 3, height: 2 },
    });
    expect(result.ok && Buffer.from(result.bytes).equals(TEST_IMAGES.png)).toBe(true);
    expect(images.requests).toEqual(["/cat.png"]);
    expect(images.connections).toBe(1);
  });

  it("is connected to the pinned address: the name is resolved once, a second answer is never used", async () => {
    if (!second) return; // 127.0.0.2 is not routable here
    let calls = 0;
    const rebinding: Resolver = async () => {
      calls += 1;
      return [{ address: calls === 1 ? "127.0.0.1" : "127.0.0.2", family: 4 }];
    };
    const result = await fetchImageLink(`http://rebind.test:${images.port}/cat.png`, {
      allowHosts: ["rebind.test"],
      resolver: rebinding,
    });
    expect(result.ok).toBe(true);
    expect(calls).toBe(1);
    expect(images.requests).toEqual(["/cat.png"]);
    expect(second.connections).toBe(0);
  });

  const allowed = { allowHosts: ["images.test"], resolver: resolverTo({ "images.test": ["127.0.0.1"] }) };
  it("that answers HTML is refused: not an image", async () => {
    const result = await fetchImageLink(`http://images.test:${images.port}/page.html`, allowed);
    expect(result.ok ? "" : result.reason).toMatch(/not a JPEG, PNG, GIF or WebP image/);
  });

  it("over the size limit is refused", async () => {
    const result = await fetchImageLink(`http://images.test:${images.port}/huge.png`, {
      ...allowed,
      maxBytes: 1_024,
    });
    expect(result.ok ? "" : result.reason).toMatch(/larger than/);
  });

  it("that does not answer in time is refused", async () => {
    const started = performance.now();
    const result = await fetchImageLink(`http://images.test:${images.port}/slow.png`, {
      ...allowed,
      timeoutMs: 300,
    });
    expect(result.ok ? "" : result.reason).toBe("it took too long to answer");
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("a 404 is refused with the status", async () => {
    const result = await fetchImageLink(`http://images.test:${images.port}/missing.png`, allowed);
    expect(result.ok ? "" : result.reason).toBe("the server answered 404");
  });
});
