// scripts/serve.mjs refuses a WEB_CONCURRENCY or HEAP_GROWTH_PERCENT it cannot honour before it starts anything:
// exit code 2 and a message that names the problem; the heap growth it honours reaches each worker's V8 flags.
// (Workers serving turns: e2e/workers.spec.ts.)
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";

const SERVE = path.resolve(import.meta.dirname, "../../scripts/serve.mjs");

function serve(environment: Record<string, string>) {
  const { DATABASE_URL, REDIS_URL, WEB_CONCURRENCY, HEAP_GROWTH_PERCENT, ...rest } = process.env;
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

describe("HEAP_GROWTH_PERCENT", () => {
  test.each([["abc"], ["-1"], ["12.5"], ["1001"]])("%s is refused", (value) => {
    const { status, stderr } = serve({ HEAP_GROWTH_PERCENT: value });
    expect(status).toBe(2);
    expect(stderr.trim()).toBe(`HEAP_GROWTH_PERCENT must be a whole number from 0 to 1000 (got "${value}")`);
  });

  /** The V8 flags a worker starts with: a probe preloaded in each process writes a worker's down and ends it. */
  function workerFlags(environment: Record<string, string>): string[] {
    const directory = mkdtempSync(path.join(tmpdir(), "glassbox-serve-"));
    try {
      const probe = path.join(directory, "probe.cjs");
      const written = path.join(directory, "flags.json");
      writeFileSync(
        probe,
        `if (require("node:cluster").isWorker) {
          require("node:fs").writeFileSync(${JSON.stringify(written)}, JSON.stringify(process.execArgv));
          process.exit(0);
        }`,
      );
      // The worker exits before it listens, so the instance stops (1): only the flags matter here.
      const { status } = serve({ ...environment, NODE_OPTIONS: `--require ${probe}` });
      expect(status).toBe(1);
      return JSON.parse(readFileSync(written, "utf8")) as string[];
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }

  test.each([
    [{}, ["--heap-growing-percent=50"]],
    [{ HEAP_GROWTH_PERCENT: "100" }, ["--heap-growing-percent=100"]],
    [{ HEAP_GROWTH_PERCENT: "0" }, []],
  ])("%o: each worker starts with %o", (environment, flags) => {
    const heapFlags = workerFlags(environment).filter((flag) => flag.startsWith("--heap-growing-percent"));
    expect(heapFlags).toEqual(flags);
  });
});
