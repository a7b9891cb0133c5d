// The Content-Security-Policy of every answer. The app is never framed (frame-ancestors), loads nothing from other
// origins, and posts forms only to itself. Pages get a fresh nonce per request from proxy.ts: only scripts that
// carry it run (Next puts it on its own scripts, the root layout on the theme script), and 'strict-dynamic' lets
// those load the chunks they need. Everything else (API answers, files) gets the policy without a nonce, which
// runs no inline script at all. Styles keep 'unsafe-inline' (React and the UI set style attributes); markdown is
// rendered without raw HTML, which keeps injected markup out. Development adds 'unsafe-eval' for React's tooling.
// Plain JavaScript (its types in content-security-policy.d.mts) because next.config.mjs imports it: a TypeScript
// config makes every `next start` load the SWC compiler to read it, tens of MB in each worker.

/** @param {{ nonce: string | null; development?: boolean }} options */
export function contentSecurityPolicy({ nonce, development = process.env.NODE_ENV === "development" }) {
  const scripts = nonce ? ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"] : ["'self'"];
  if (development) scripts.push("'unsafe-eval'");
  return [
    "default-src 'self'",
    `script-src ${scripts.join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "media-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
