// Plain JavaScript: `next start` reads its config at every start, and a TypeScript one would load the SWC compiler
// into each worker to read it.
import { contentSecurityPolicy } from "./lib/api/content-security-policy.mjs";

// Every response gets these; pages get their Content-Security-Policy again from proxy.ts, with a per-request
// nonce (the proxy's header replaces this one).
const SECURITY_HEADERS = [
  { key: "Content-Security-Policy", value: contentSecurityPolicy({ nonce: null }) },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "same-origin" },
  // For browsers that predate frame-ancestors.
  { key: "X-Frame-Options", value: "DENY" },
];

/** @type {import("next").NextConfig} */
const nextConfig = {
  // Loaded from node_modules at run time, not bundled. PGlite ships WASM and data files. gpt-tokenizer's rank tables
  // are megabytes of source: bundled, they went into several route chunks, and a worker kept the source of every
  // copy it loaded; outside the bundle a worker reads them once, when it first counts with that encoding.
  serverExternalPackages: ["@electric-sql/pglite", "gpt-tokenizer", "pino", "postgres"],
  // The build type-checks the app only; npm test type-checks everything, tests included, with `tsc -p .` after its
  // build, so it builds without this check (NEXT_SKIP_TYPE_CHECK=1, set by scripts/test.mjs).
  typescript: {
    tsconfigPath: "tsconfig.build.json",
    ignoreBuildErrors: process.env.NEXT_SKIP_TYPE_CHECK === "1",
  },
  poweredByHeader: false,
  // What Next keeps of a body for proxy.ts, which sees bodies only at addresses with a percent escape (proxy.ts).
  experimental: {
    proxyClientMaxBodySize: 64 * 1024,
    // Writing Turbopack's cache to disk makes the next build of a similar tree faster but this one slower; CI
    // builds a fresh clone once, so scripts/test.mjs turns it off there (NEXT_BUILD_CACHE=0).
    turbopackFileSystemCacheForBuild: process.env.NEXT_BUILD_CACHE !== "0",
    // NEXT_SERVER_MINIFY=0 keeps the server code's names, so that a CPU profile of the built app reads (bench/run.ts).
    serverMinification: process.env.NEXT_SERVER_MINIFY !== "0",
  },
  // Lets parallel test runs build into separate folders (NEXT_DIST_DIR); `.next` otherwise.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  async headers() {
    return [{ source: "/:path*", headers: SECURITY_HEADERS }];
  },
};

export default nextConfig;
