// Health for load balancers (docs/deploy.md#health): liveness answers without the database; readiness names the
// check that fails: migrations this build ships that the database lacks, Redis configured but unreachable.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as healthRoute from "@/app/api/health/route";
import * as readyRoute from "@/app/api/ready/route";
import { createDatabase, getDb } from "@/db/client";
import { createFreshDatabase, dropDatabase } from "../database";

interface Report {
  status: string;
  checks: Record<string, { ok: boolean; detail?: string }>;
}

const baseUrl = process.env.GLASSBOX_BASE_DATABASE_URL;
const globals = globalThis as { glassboxDatabase?: { close(): Promise<void> }; glassboxAuth?: unknown };
const savedRedisUrl = process.env.REDIS_URL;
let fresh: { url: string; name: string } | null = null;

beforeAll(async () => {
  // A database of this file's own: one test takes a migration back out of its records.
  if (!baseUrl) return;
  fresh = await createFreshDatabase(baseUrl, "health");
  await globals.glassboxDatabase?.close().catch(() => {});
  globals.glassboxAuth = undefined;
  globals.glassboxDatabase = createDatabase({ url: fresh.url });
  await getDb();
});

afterAll(async () => {
  if (savedRedisUrl === undefined) delete process.env.REDIS_URL;
  else process.env.REDIS_URL = savedRedisUrl;
  await globals.glassboxDatabase?.close().catch(() => {});
  globals.glassboxDatabase = undefined;
  if (baseUrl && fresh) await dropDatabase(baseUrl, fresh.name);
});

async function ready(): Promise<{ status: number; report: Report; retryAfter: string | null }> {
  const response = await readyRoute.GET();
  return {
    status: response.status,
    report: (await response.json()) as Report,
    retryAfter: response.headers.get("retry-after"),
  };
}

describe("health", () => {
  test("liveness: 200 ok, never cached", async () => {
    const response = healthRoute.GET();
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toMatchObject({ status: "ok", checks: { process: { ok: true } } });
  });

  test.skipIf(!baseUrl)("readiness: 200 with each check when the database is migrated", async () => {
    delete process.env.REDIS_URL;
    const { status, report } = await ready();
    expect(status).toBe(200);
    expect(report.status).toBe("ok");
    expect(Object.keys(report.checks).sort()).toEqual(["database", "migrations", "shutdown"]);
    expect(report.checks.migrations.detail).toMatch(/^up to \d{4}_/);
  });

  test.skipIf(!baseUrl)(
    "readiness: 503 naming the migrations while the newest one is not applied",
    async () => {
      delete process.env.REDIS_URL;
      const sql = postgres(fresh?.url as string, { max: 1, onnotice: () => {} });
      try {
        const [newest] = await sql`
        delete from drizzle.__drizzle_migrations
        where created_at = (select max(created_at) from drizzle.__drizzle_migrations) returning *`;
        const { status, report, retryAfter } = await ready();
        expect(status).toBe(503);
        expect(retryAfter).toBe("5");
        expect(report.status).toBe("unavailable");
        expect(report.checks.migrations).toMatchObject({ ok: false });
        expect(report.checks.migrations.detail).toMatch(/not applied yet/);
        expect(report.checks.database.ok).toBe(true);
        await sql`insert into drizzle.__drizzle_migrations ${sql(newest)}`;
        expect((await ready()).status).toBe(200);
      } finally {
        await sql.end();
      }
    },
  );

  test.skipIf(!baseUrl)("readiness: Redis is checked when configured, and a dead one is named", async () => {
    process.env.REDIS_URL = "redis://127.0.0.1:1";
    const down = await ready();
    expect(down.status).toBe(503);
    expect(down.report.checks.redis).toMatchObject({ ok: false });
    expect(down.report.checks.database.ok).toBe(true);
    process.env.REDIS_URL = savedRedisUrl || "redis://127.0.0.1:6379";
    const up = await ready();
    // The local Redis runs in CI; elsewhere it may not.
    if (up.report.checks.redis.ok) expect(up.status).toBe(200);
    else expect(up.status).toBe(503);
  });
});
