// Pages during a database outage (proxy.ts, lib/database-outage-page.ts): while the database is cut, a page request
// answers 503 with retry-after and a page that says the database is unreachable and offers "Try again"; the API
// and Next's own files pass on to their routes (which answer their own 503); once the database is back, pages pass
// on again, in the same process. Needs Postgres (the cut goes through tests/fixtures/cuttable-proxy.ts).
import { describe, expect, test } from "vitest";
import { proxy } from "@/proxy";
import { databaseBehindProxy } from "../fixtures/cuttable-proxy";

const baseUrl = process.env.GLASSBOX_BASE_DATABASE_URL;
const ORIGIN = "http://localhost:3000";

function request(path: string, method = "GET"): Request {
  return new Request(`${ORIGIN}${path}`, {
    method,
    headers: { host: "localhost:3000", accept: "text/html" },
  });
}

/** Whether the proxy let the request on to its route (Next's marker on NextResponse.next()). */
function passedOn(response: Response): boolean {
  return response.headers.get("x-middleware-next") === "1";
}

const PAGES = ["/", "/chat", "/chat/0190aaaa-0000-7000-8000-000000000000", "/admin/memories", "/sign-in?x=1"];
const NOT_PAGES: Array<{ name: string; path: string; method?: string }> = [
  { name: "an API route", path: "/api/conversations" },
  { name: "the readiness probe", path: "/api/ready" },
  { name: "Next's files", path: "/_next/static/chunks/main.js" },
  { name: "a file with an extension", path: "/icon.svg" },
  { name: "a page, but not GET", path: "/chat", method: "OPTIONS" },
];

async function untilPagesPassOn(): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (passedOn(await proxy(request("/")))) return;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error("pages still get the outage page 20 s after the database came back");
}

describe.skipIf(!baseUrl)("pages during a database outage", () => {
  const outage = databaseBehindProxy(baseUrl as string, "outage_pages", { cutAtStart: true });

  test.each(PAGES)("down at start-up: GET %s answers 503 with the outage page", async (path) => {
    const started = Date.now();
    const response = await proxy(request(path));
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(response.status).toBe(503);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
    const html = await response.text();
    expect(html).toContain('data-testid="database-outage"');
    expect(html).toContain("The database is not reachable right now");
    expect(html).toContain(`href="${path.replace("&", "&#38;")}" data-testid="database-outage-retry"`);
    expect(html).not.toContain("<script");
  });

  test("HEAD gets the status without the page", async () => {
    const response = await proxy(request("/", "HEAD"));
    expect(response.status).toBe(503);
    expect(await response.text()).toBe("");
  });

  test.each(NOT_PAGES)("$name is passed on to its route", async ({ path, method }) => {
    expect(passedOn(await proxy(request(path, method)))).toBe(true);
  });

  test("back again: pages pass on to their routes; cut while running: the outage page again; back: passed on", async () => {
    await outage.proxy.open();
    await untilPagesPassOn();
    await outage.proxy.cut();
    const during = await proxy(request("/chat"));
    expect(during.status).toBe(503);
    expect(await during.text()).toContain("Glassbox is briefly unavailable");
    await outage.proxy.open();
    await untilPagesPassOn();
  });
});
