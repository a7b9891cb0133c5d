import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pino", "postgres"],
  // Tests and type checks run separately (npm test); the build should not repeat the type check of test files.
  typescript: { ignoreBuildErrors: false },
  poweredByHeader: false,
};

export default nextConfig;
