// The same-origin check compares scheme, host and port: an `Origin` must be the very origin the browser
// addressed. The scheme is the request's own or, behind a proxy that ended TLS, its `x-forwarded-proto` (which
// the server keeps only from TRUSTED_PROXIES: tests/api/forwarding-headers.test.ts).
import { afterEach, describe, expect, test } from "vitest";
import { requireSameOrigin } from "@/lib/api/same-origin";
import { AppError } from "@/lib/domain/errors";

interface Scenario {
  name: string;
  url: string;
  origin: string;
  headers?: Record<string, string>;
  environment?: { BETTER_AUTH_URL?: string; ALLOWED_HOSTS?: string };
  accepted: boolean;
}

/** [name, request URL, Origin, accepted, other request headers] under one configuration. */
type Row = [name: string, url: string, origin: string, accepted: boolean, headers?: Record<string, string>];

function under(environment: Scenario["environment"], rows: Row[]): Scenario[] {
  return rows.map(([name, url, origin, accepted, headers]) => ({
    name,
    url,
    origin,
    accepted,
    headers,
    environment,
  }));
}

const scenarios: Scenario[] = [
  // no configured origins: the addressed one only
  ...under(undefined, [
    ["the same origin", "http://localhost:3000/api/chat", "http://localhost:3000", true],
    ["the same origin, written in capitals", "http://localhost:3000/api/chat", "HTTP://LOCALHOST:3000", true],
    ["https to an http address", "http://localhost:3000/api/chat", "https://localhost:3000", false],
    ["another port", "http://localhost:3000/api/chat", "http://localhost:4444", false],
    ["no port (80) to port 3000", "http://localhost:3000/api/chat", "http://localhost", false],
    ["another host", "http://localhost:3000/api/chat", "http://evil.example:3000", false],
    [
      "a scheme that is not the web's",
      "http://localhost:3000/api/chat",
      "chrome-extension://localhost:3000",
      false,
    ],
    ["not a URL", "http://localhost:3000/api/chat", "localhost:3000", false],
    ["https to an https address", "https://app.example/api/chat", "https://app.example", true],
    ["http to an https address", "https://app.example/api/chat", "http://app.example", false],
    [
      "the default port written out",
      "https://app.example/api/chat",
      "https://app.example",
      true,
      { host: "app.example:443" },
    ],
    [
      "behind a TLS proxy: https",
      "http://app.example/api/chat",
      "https://app.example",
      true,
      { "x-forwarded-proto": "https" },
    ],
    [
      "behind a TLS proxy: http refused",
      "http://app.example/api/chat",
      "http://app.example",
      false,
      { "x-forwarded-proto": "https" },
    ],
    [
      "behind a chain of proxies: the first one's scheme",
      "http://app.example/api/chat",
      "https://app.example",
      true,
      { "x-forwarded-proto": "https, http" },
    ],
    [
      "a proxy that says http",
      "http://app.example/api/chat",
      "https://app.example",
      false,
      { "x-forwarded-proto": "http" },
    ],
    [
      "the Host header, not the URL's host",
      "http://10.0.0.5:3000/api/chat",
      "https://app.example",
      true,
      { host: "app.example", "x-forwarded-proto": "https" },
    ],
  ]),
  // BETTER_AUTH_URL: its own scheme, host and port
  ...under({ BETTER_AUTH_URL: "https://public.example" }, [
    ["BETTER_AUTH_URL's origin", "http://10.0.0.5:3000/api/chat", "https://public.example", true],
    [
      "BETTER_AUTH_URL's host over another scheme",
      "http://10.0.0.5:3000/api/chat",
      "http://public.example",
      false,
    ],
    [
      "BETTER_AUTH_URL's host on another port",
      "http://10.0.0.5:3000/api/chat",
      "https://public.example:8443",
      false,
    ],
  ]),
  // ALLOWED_HOSTS: a host (and port) over the scheme the request came in on
  ...under({ ALLOWED_HOSTS: "*.preview.example" }, [
    [
      "an allowed host over the request's scheme",
      "http://localhost:3000/api/chat",
      "http://a.preview.example",
      true,
    ],
    [
      "an allowed host over another scheme",
      "http://localhost:3000/api/chat",
      "https://a.preview.example",
      false,
    ],
    [
      "an allowed host behind a TLS proxy",
      "http://localhost:3000/api/chat",
      "https://a.preview.example",
      true,
      { "x-forwarded-proto": "https" },
    ],
    [
      "an allowed host on a port it does not name",
      "http://localhost:3000/api/chat",
      "http://a.preview.example:8080",
      false,
    ],
  ]),
];

const saved = { BETTER_AUTH_URL: process.env.BETTER_AUTH_URL, ALLOWED_HOSTS: process.env.ALLOWED_HOSTS };

afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("requireSameOrigin: scheme, host and port", () => {
  test.each(scenarios)("$name: $origin to $url", ({ url, origin, headers, environment, accepted }) => {
    delete process.env.BETTER_AUTH_URL;
    delete process.env.ALLOWED_HOSTS;
    Object.assign(process.env, environment ?? {});
    const request = new Request(url, {
      method: "POST",
      headers: { host: new URL(url).host, ...headers, origin },
    });
    if (accepted) {
      expect(() => requireSameOrigin(request)).not.toThrow();
    } else {
      expect(() => requireSameOrigin(request)).toThrow(AppError);
      expect(() => requireSameOrigin(request)).toThrow(/Cross-origin request refused/);
    }
  });
});
