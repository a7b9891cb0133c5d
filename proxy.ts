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
  // Every address but Next's own static files.
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
