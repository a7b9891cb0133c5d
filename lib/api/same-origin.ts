// Cross-site request forgery guard for every state-changing request (app routes and better-auth's alike). A
// browser always names the page that sent a request in `Origin` (or, failing that, says in `Sec-Fetch-Site`
// whether it came from this origin); a form or a no-cors fetch from another site, or from another port of this
// host, names itself. So: the origin must be this very host (the `Host` the browser addressed, or one configured
// in BETTER_AUTH_URL/ALLOWED_HOSTS), and the body must be one no HTML form can send (JSON, or multipart for the
// upload route, which a form can send but only with a same-origin `Origin`).

import "server-only";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isStateChanging(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/** Hosts (host[:port], `*` matches any run of characters) that count as this app besides the addressed one. */
function configuredHosts(): string[] {
  const { BETTER_AUTH_URL, ALLOWED_HOSTS } = env();
  return [...(BETTER_AUTH_URL ? [new URL(BETTER_AUTH_URL).host] : []), ...ALLOWED_HOSTS];
}

function hostMatches(host: string, pattern: string): boolean {
  if (!pattern.includes("*")) return host === pattern;
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*");
  return new RegExp(`^${escaped}$`).test(host);
}

/** The origin the request came from is this app's own. */
function isOwnOrigin(origin: string, request: Request): boolean {
  let originHost: string;
  try {
    const parsed = new URL(origin);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
    originHost = parsed.host.toLowerCase();
  } catch {
    return false;
  }
  const addressed = (request.headers.get("host") ?? new URL(request.url).host).toLowerCase();
  if (originHost === addressed) return true;
  return configuredHosts().some((pattern) => hostMatches(originHost, pattern));
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
