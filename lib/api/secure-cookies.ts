// `Secure` session cookies when the app is served over HTTPS. better-auth fixes the cookie attributes once, at
// start-up, from its base URL; this app's base URL follows the request, so the attribute is added per response.

import "server-only";

/** HTTPS as the browser saw it: the URL itself, or a proxy's `x-forwarded-proto` (the server drops that header
 * from peers outside TRUSTED_PROXIES before it gets here, see lib/api/client-address.ts). */
export function servedOverHttps(request: Request): boolean {
  if (new URL(request.url).protocol === "https:") return true;
  return request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase() === "https";
}

export function withSecureCookies(response: Response): Response {
  const cookies = response.headers.getSetCookie();
  if (cookies.length === 0) return response;
  const headers = new Headers(response.headers);
  headers.delete("set-cookie");
  for (const cookie of cookies) {
    headers.append("set-cookie", /;\s*secure\s*(;|$)/i.test(cookie) ? cookie : `${cookie}; Secure`);
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
