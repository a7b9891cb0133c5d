import type { NextConfig } from "next";

// NODE_ENV and NEXT_DIST_DIR are the build's own settings, read here directly: Node loads this file outside the
// server, where lib/env.ts (server-only) cannot be imported.

// Every response, pages and API alike. The app is never framed (frame-ancestors), loads nothing from other
// origins, and posts forms only to itself. Scripts and styles allow 'unsafe-inline' because Next.js inlines its
// bootstrap scripts without a nonce on statically rendered pages; markdown is rendered without raw HTML, which is
// what keeps injected markup out. Development adds 'unsafe-eval' for React's dev tooling.
const development = process.env.NODE_ENV === "development";
const contentSecurityPolicy = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${development ? " 'unsafe-eval'" : ""}`,
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

export const SECURITY_HEADERS = [
  { key: "Content-Security-Policy", value: contentSecurityPolicy },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "same-origin" },
  // For browsers that predate frame-ancestors.
  { key: "X-Frame-Options", value: "DENY" },
];

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pino", "postgres"],
  // The build type-checks the app only; npm test type-checks everything, tests included.
  typescript: { tsconfigPath: "tsconfig.build.json" },
  poweredByHeader: false,
  // Lets parallel test runs build into separate folders (NEXT_DIST_DIR); `.next` otherwise.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  async headers() {
    return [{ source: "/:path*", headers: SECURITY_HEADERS }];
  },
};

export default nextConfig;
