// Runs before routing, for requests without a body: an address that cannot be decoded (malformed
// percent-encoding, or one that decodes to NUL) gets a 400 in the app's error format here, where the framework
// would otherwise answer its own plain 500 while matching the route; every other answer gets a Content-Security-
// Policy with a fresh nonce, which the pages' scripts carry (lib/api/content-security-policy.mjs). While the
// database is unreachable, a page request gets a 503 page saying so (lib/database-outage-page.ts) instead of the
// bare 500 its failed session lookup would give.
import { NextResponse } from "next/server";
import { contentSecurityPolicy } from "@/lib/api/content-security-policy.mjs";
import { databaseIsUnreachable, databaseOutagePage, isPageRequest } from "@/lib/database-outage-page";

function addressProblem(pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return "The address has malformed percent-encoding (a % must start a valid UTF-8 escape like %20).";
  }
  return decoded.includes("\u0000") ? "The address must not contain NUL (%00) characters." : null;
}

export async function proxy(request: Request) {
  const { pathname } = new URL(request.url);
  const problem = addressProblem(pathname);
  if (problem)
    return NextResponse.json({ error: { code: "bad_request", message: problem } }, { status: 400 });
  if (isPageRequest(request) && (await databaseIsUnreachable())) {
    const page = databaseOutagePage(request);
    page.headers.set("content-security-policy", contentSecurityPolicy({ nonce: null }));
    return page;
  }
  const nonce = btoa(crypto.randomUUID());
  const policy = contentSecurityPolicy({ nonce });
  // Next reads the nonce from the request's policy and puts it on its own scripts; the root layout reads x-nonce.
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  matcher: [
    {
      // Every address but Next's own static files, for requests without a body. A request the proxy sees has
      // its whole body read by Next first (up to 10 MB kept, twice, before the route runs), which would undo the
      // routes' capped reading (lib/api/read-body.ts): a 256 MB body would be taken in whole before its 413.
      source: "/((?!_next/static|_next/image|favicon.ico).*)",
      missing: [
        { type: "header", key: "content-length" },
        { type: "header", key: "transfer-encoding" },
      ],
    },
    // An address with a percent escape may be malformed, body or not. No route takes a body at such an address,
    // so what Next keeps of its body for the proxy is small (proxyClientMaxBodySize in next.config.mjs).
    { source: "/(.*%.*)" },
  ],
};
