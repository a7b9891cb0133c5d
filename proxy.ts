// Runs before routing: an address that cannot be decoded (malformed percent-encoding, or one that decodes to NUL)
// gets a 400 in the app's error format here, where the framework would otherwise answer its own plain 500 while
// matching the route.
import { NextResponse } from "next/server";

function addressProblem(pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return "The address has malformed percent-encoding (a % must start a valid UTF-8 escape like %20).";
  }
  return decoded.includes("\u0000") ? "The address must not contain NUL (%00) characters." : null;
}

export function proxy(request: Request) {
  const { pathname } = new URL(request.url);
  const problem = addressProblem(pathname);
  if (!problem) return NextResponse.next();
  return NextResponse.json({ error: { code: "bad_request", message: problem } }, { status: 400 });
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
  ],
};
