// Pages during a database outage: the API answers 503 with retry-after (lib/api/route.ts), but a page that fails
// to load its session would answer a bare 500, and a server component cannot set its own status. So proxy.ts asks
// here first: for a page request, a ping (after the migration `ready` waits for), and when the database is
// unreachable, a 503 page that says what is wrong and offers to try again. A self-contained document: no script,
// no stylesheet to load from an app that is half down.
import "server-only";
import { databaseHandle } from "@/db/client";
import { pingDatabase } from "@/db/health-queries";
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from "@/lib/domain/errors";

/** A request for a page (not the API, not Next's files or a file with an extension): what the outage page is for. */
export function isPageRequest(request: Request): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  const { pathname } = new URL(request.url);
  if (pathname === "/api" || pathname.startsWith("/api/") || pathname.startsWith("/_next/")) return false;
  return !/\.[A-Za-z0-9]+$/.test(pathname);
}

/**
 * True when the database cannot be reached (refused, reset, timed out: lib/domain/errors.ts isDatabaseUnavailable). Any
 * other failure is left to the page, whose own error handling applies.
 */
export async function databaseIsUnreachable(): Promise<boolean> {
  const handle = databaseHandle();
  try {
    await handle.ready;
    await pingDatabase({ db: handle.db });
    return false;
  } catch (error) {
    return isDatabaseUnavailable(error);
  }
}

/** The 503 page; `retryHref` is the address asked for, which "Try again" reloads. */
export function databaseOutagePage(request: Request): Response {
  const { pathname, search } = new URL(request.url);
  const headers = {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "retry-after": String(DATABASE_RETRY_AFTER_SECONDS),
  };
  const body = request.method === "HEAD" ? null : outageDocument(`${pathname}${search}`);
  return new Response(body, { status: 503, headers });
}

const STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #fff; color: #18181b; }
  main { max-width: 32rem; padding: 2rem; }
  h1 { font-size: 1.5rem; margin: 0 0 1rem; }
  p { line-height: 1.5; color: #3f3f46; }
  a { display: inline-block; margin-top: 1rem; padding: 0.5rem 1rem; border-radius: 0.5rem; background: #18181b;
      color: #fff; text-decoration: none; font-weight: 600; }
  a:focus-visible { outline: 2px solid #2563eb; outline-offset: 2px; }
  @media (prefers-color-scheme: dark) {
    body { background: #09090b; color: #f4f4f5; }
    p { color: #d4d4d8; }
    a { background: #f4f4f5; color: #09090b; }
  }`;

function outageDocument(retryHref: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Glassbox is briefly unavailable</title>
<style>${STYLE}</style>
</head>
<body>
<main data-testid="database-outage">
<h1>Glassbox is briefly unavailable</h1>
<p>The database is not reachable right now, so this page cannot be shown. Your conversations are safe: nothing is
lost while it is away.</p>
<p>Try again in ${DATABASE_RETRY_AFTER_SECONDS} seconds.</p>
<a href="${escapeAttribute(retryHref)}" data-testid="database-outage-retry">Try again</a>
</main>
</body>
</html>
`;
}

function escapeAttribute(text: string): string {
  return text.replace(/[&"<>]/g, (character) => `&#${character.charCodeAt(0)};`);
}
