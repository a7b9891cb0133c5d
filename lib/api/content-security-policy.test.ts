// The CSP never allows eval outside development, and the browser's zod is told not to probe for it (its JIT's
// `new Function("")` would be reported as a violation on every page that parses with zod).

import { describe, expect, test } from "vitest";
import { config } from "zod";
import { contentSecurityPolicy } from "./content-security-policy.mjs";

describe("the Content-Security-Policy", () => {
  test("a page's policy: its nonce, 'strict-dynamic', and no 'unsafe-eval'", () => {
    const policy = contentSecurityPolicy({ nonce: "abc123", development: false });
    expect(policy.split("; ").find((directive) => directive.startsWith("script-src "))).toBe(
      "script-src 'self' 'nonce-abc123' 'strict-dynamic'",
    );
    expect(policy).not.toContain("unsafe-eval");
  });

  test("an API answer's policy has no 'unsafe-eval' either", () => {
    expect(contentSecurityPolicy({ nonce: null, development: false })).not.toContain("unsafe-eval");
  });

  test("the client entry makes zod jitless, so it never probes new Function", async () => {
    const before = config().jitless;
    try {
      await import("@/instrumentation-client");
      expect(config().jitless).toBe(true);
    } finally {
      config({ jitless: before });
    }
  });
});
