// scripts/serve.mjs refuses a WEB_CONCURRENCY it cannot honour before it starts anything: exit code 2 and a message
// that names the problem. (Workers serving turns: e2e/workers.spec.ts.)
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, test } from "vitest";

const SERVE = path.resolve(import.meta.dirname, "../../scripts/serve.mjs");

function serve(environment: Record<string, string>) {
  const { DATABASE_URL, REDIS_URL, WEB_CONCURRENCY, ...rest } = process.env;
  const result = spawnSync(process.execPath, [SERVE], {
    env: { ...rest, PORT: "1", ...environment },
    encoding: "utf8",
    timeout: 20_000,
  });
  return { status: result.status, stderr: result.stderr };
}

describe("WEB_CONCURRENCY", () => {
  test.each([
    ["abc", 'WEB_CONCURRENCY must be a whole number from 1 to 64, or "auto" (got "abc")'],
    ["0", 'WEB_CONCURRENCY must be a whole number from 1 to 64, or "auto" (got "0")'],
    ["1.5", 'WEB_CONCURRENCY must be a whole number from 1 to 64, or "auto" (got "1.5")'],
    ["65", 'WEB_CONCURRENCY must be a whole number from 1 to 64, or "auto" (got "65")'],
  ])("%s is refused", (value, message) => {
    const { status, stderr } = serve({ WEB_CONCURRENCY: value });
    expect(status).toBe(2);
    expect(stderr.trim()).toBe(message);
  });

  test.each([
    [{ WEB_CONCURRENCY: "2" }, "DATABASE_URL and REDIS_URL"],
    [{ WEB_CONCURRENCY: "2", DATABASE_URL: "postgres://db/app" }, "REDIS_URL"],
    [{ WEB_CONCURRENCY: "3", REDIS_URL: "redis://cache:6379" }, "DATABASE_URL"],
  ])("more than one worker without what workers share (%o) is refused, naming %s", (environment, missing) => {
    const { status, stderr } = serve(environment);
    expect(status).toBe(2);
    expect(stderr).toContain(`WEB_CONCURRENCY=${environment.WEB_CONCURRENCY} needs ${missing}:`);
  });
});
