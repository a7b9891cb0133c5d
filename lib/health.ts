// Health for load balancers and orchestrators (docs/deploy.md#health). Liveness: the process answers (no
// database). Readiness: the database answers and has every migration this build ships, Redis answers when it is
// configured, and the instance is not shutting down. Each check is bounded in time, so a hung dependency makes
// the answer a quick 503 naming it instead of a hung probe.

import "server-only";
import { createClient } from "redis";
import { databaseHandle } from "@/db/client";
import { getLatestAppliedMigration, pingDatabase, shippedMigrations } from "@/db/health-queries";
import { env } from "@/lib/config/env";
import { logger } from "@/lib/logger";
import { isShuttingDown, onShutdown } from "@/lib/shutdown-hooks";

const CHECK_TIMEOUT_MS = 2_000;

export interface Check {
  ok: boolean;
  ms: number;
  /** Why it failed, or what was checked. */
  detail?: string;
}

export interface HealthReport {
  status: "ok" | "unavailable";
  checks: Record<string, Check>;
}

export function liveness(): HealthReport {
  return {
    status: "ok",
    checks: { process: { ok: true, ms: 0, detail: `up ${Math.round(process.uptime())} s` } },
  };
}

export async function readiness(): Promise<HealthReport> {
  const { REDIS_URL } = env();
  const [database, migrations, redis] = await Promise.all([
    timed(() => pingDatabase({ db: databaseHandle().db }).then(() => undefined)),
    timed(checkMigrations),
    REDIS_URL ? timed(() => pingRedis(REDIS_URL)) : null,
  ]);
  const checks: Record<string, Check> = {
    shutdown: isShuttingDown()
      ? { ok: false, ms: 0, detail: "shutting down: no new turns" }
      : { ok: true, ms: 0 },
    database,
    migrations,
  };
  if (redis) checks.redis = redis;
  return { status: Object.values(checks).every((check) => check.ok) ? "ok" : "unavailable", checks };
}

async function checkMigrations(): Promise<string> {
  const shipped = shippedMigrations();
  const applied = await getLatestAppliedMigration({ db: databaseHandle().db });
  if (applied === null || applied < shipped.latest) {
    throw new Error(`not applied yet: this build's migrations go up to ${shipped.tag}`);
  }
  return `up to ${shipped.tag}`;
}

async function timed(check: () => Promise<string | undefined>): Promise<Check> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const detail = await Promise.race([
      check(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)),
          CHECK_TIMEOUT_MS,
        );
      }),
    ]);
    return { ok: true, ms: Math.round(performance.now() - started), ...(detail ? { detail } : {}) };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, ms: Math.round(performance.now() - started), detail };
  } finally {
    clearTimeout(timer);
  }
}

const connectHealthClient = async (url: string) => {
  const client = createClient({
    url,
    socket: { connectTimeout: CHECK_TIMEOUT_MS, reconnectStrategy: false },
  });
  client.on("error", (error) => logger.debug({ err: error }, "redis error (health)"));
  await client.connect();
  onShutdown("redis (health)", () => client.quit());
  return client;
};
const globalForHealth = globalThis as unknown as {
  glassboxHealthRedis?: ReturnType<typeof connectHealthClient>;
};

/** One small client for the probes, connected on first use and again after a failure. */
async function pingRedis(url: string): Promise<undefined> {
  globalForHealth.glassboxHealthRedis ??= connectHealthClient(url);
  const connecting = globalForHealth.glassboxHealthRedis;
  try {
    await (await connecting).ping();
  } catch (error) {
    globalForHealth.glassboxHealthRedis = undefined;
    void connecting.then((client) => client.destroy()).catch(() => {});
    throw error;
  }
  return undefined;
}
