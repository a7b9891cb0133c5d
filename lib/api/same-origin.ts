// Cross-site request forgery guard for every state-changing request (app routes and better-auth's alike). A
// browser always names the page that sent a request in `Origin` (or, failing that, says in `Sec-Fetch-Site`
// whether it came from this origin); a form or a no-cors fetch from another site, or from another port or scheme
// of this host, names itself. So: the origin must be this very scheme, host and port (the `Host` the browser
// addressed over the scheme it used, or BETTER_AUTH_URL, or a host of ALLOWED_HOSTS over the scheme the request
// came in on), and the body must be one no HTML form can send (JSON, or multipart for the
// upload route, which a form can send but only with a same-origin `Origin`).

import "server-only";
import { servedOverHttps } from "@/lib/api/secure-cookies";
import { env } from "@/lib/config/env";
import { AppError } from "@/lib/domain/errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isStateChanging(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/** The public origin (scheme, host, port) BETTER_AUTH_URL names, if it is set. */
function configuredOrigin(): string | null {
  const { BETTER_AUTH_URL } = env();
  return BETTER_AUTH_URL ? new URL(BETTER_AUTH_URL).origin : null;
}

/** A host of ALLOWED_HOSTS (host[:port], `*` matches any run of characters). */
function hostMatches(host: string, pattern: string): boolean {
  if (!pattern.includes("*")) return host === pattern;
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*");
  return new RegExp(`^${escaped}$`).test(host);
}

/**
 * The origin the request came from is this app's own: same scheme, host and port. The scheme the browser used is
 * the request's own, or the `x-forwarded-proto` of a proxy that ended TLS (believed only from TRUSTED_PROXIES:
 * lib/api/client-address.ts drops it from anyone else), as for the session cookie's `Secure`.
 */
function isOwnOrigin(origin: string, request: Request): boolean {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
  const scheme = servedOverHttps(request) ? "https:" : "http:";
  const addressedHost = request.headers.get("host") ?? new URL(request.url).host;
  let addressed: string;
  try {
    // Through URL, so a default port written out (`host:443`) compares equal to none.
    addressed = new URL(`${scheme}//${addressedHost}`).origin;
  } catch {
    return false;
  }
  if (parsed.origin === addressed || parsed.origin === configuredOrigin()) return true;
  return (
    parsed.protocol === scheme && env().ALLOWED_HOSTS.some((pattern) => hostMatches(parsed.host, pattern))
  );
}

/** Throws a 403 unless the request provably comes from a page of this app (or is typed by the user). */
export function requireSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  if (origin && origin !== "null") {
    if (!isOwnOrigin(origin, request)) {
      throw new AppError(
        "forbidden",
        `Cross-origin request refused: ${origin} is not this app's origin, so it may not change anything here.`,
      );
    }
    return;
  }
  const site = request.headers.get("sec-fetch-site");
  if (site === "same-origin" || site === "none") return;
  throw new AppError(
    "forbidden",
    origin === "null"
      ? "Cross-origin request refused: the request comes from an opaque origin (Origin: null)."
      : "Cross-origin request refused: a request that changes something must carry this app's Origin header.",
  );
}

export type BodyKind = "json" | "multipart";

const BODY_TYPE_PATTERNS: Record<BodyKind, RegExp> = {
  json: /^application\/json\s*(;|$)/i,
  multipart: /^multipart\/form-data\s*(;|$)/i,
};

/** As HTTP/1.1 frames it: a body has a non-zero length or is chunked; neither header means none. */
function hasBody(request: Request): boolean {
  const length = request.headers.get("content-length");
  if (length !== null) return Number(length) !== 0;
  return request.headers.has("transfer-encoding");
}

/**
 * Throws a 415 unless the body, if there is one, is of a kind this app reads. A body-less request (DELETE, a
 * POST that takes no input) needs no content type; one with a body must say it is JSON (or multipart).
 */
export function requireBodyKind(request: Request, accepted: readonly BodyKind[]): void {
  const contentType = request.headers.get("content-type");
  if (contentType === null) {
    if (!hasBody(request)) return;
  } else if (accepted.some((kind) => BODY_TYPE_PATTERNS[kind].test(contentType.trim()))) {
    return;
  }
  throw new AppError(
    "unsupported_media_type",
    `Send the request body as ${accepted.map((kind) => (kind === "json" ? "application/json" : "multipart/form-data")).join(" or ")}${contentType ? `, not ${contentType.split(";")[0]}` : " (the content-type header is missing)"}.`,
  );
}

/** The guard every state-changing request passes before its handler runs. */
export function guardStateChange(
  request: Request,
  accepted: readonly BodyKind[] = ["json", "multipart"],
): void {
  if (!isStateChanging(request.method)) return;
  requireSameOrigin(request);
  requireBodyKind(request, accepted);
}
