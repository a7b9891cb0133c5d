import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pino", "postgres"],
  // The build type-checks the app only; npm test type-checks everything, tests included.
  typescript: { tsconfigPath: "tsconfig.build.json" },
  poweredByHeader: false,
  // Lets parallel test runs build into separate folders (NEXT_DIST_DIR); `.next` otherwise.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
};

export default nextConfig;
