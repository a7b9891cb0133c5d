// The set-up the specs on a cluster of real instances share (scale-out.spec.ts, workers.spec.ts): a cluster
// (e2e/cluster.ts) on the e2e Postgres and Redis, calling the e2e fake provider, started before the file's first test
// and closed after its last, and a Postgres client to check what was stored. The file's tests run in order.
import { test } from "@playwright/test";
import postgres from "postgres";
import { type Cluster, nginxAvailable, startCluster } from "./cluster";
import { clusterAppEnv, newConversations, type Session, signUp } from "./cluster-client";
import { fakeProviderClient } from "./fake-providers/client";

/** The fake provider the instances call, and a client that scripts it. */
export const CLUSTER_FAKE_URL = `http://127.0.0.1:${process.env.E2E_FAKE_PORT ?? 4010}`;
export const clusterFake = fakeProviderClient(CLUSTER_FAKE_URL);

export interface ClusterForFile {
  /** nginx's port; the instances take the ports after it. */
  basePort: number;
  instances: number;
  workersPerInstance?: number;
  /** Who shares the e2e Postgres, for the reason the file is skipped without it ("the instances"). */
  sharers: string;
  /** Called once the cluster is up, with it and the database client. */
  started: (handles: { cluster: Cluster; sql: postgres.Sql }) => void;
}

/** Starts the calling spec file's cluster (skipping the file without the e2e Postgres or nginx). */
export function clusterForFile({
  basePort,
  instances,
  workersPerInstance,
  sharers,
  started,
}: ClusterForFile) {
  test.skip(!process.env.E2E_DATABASE_URL, `${sharers} share the e2e Postgres (E2E_DATABASE_URL)`);
  test.skip(!nginxAvailable(), "nginx is not installed (Debian's nginx package; e2e/cluster.ts starts it)");
  test.describe.configure({ mode: "serial" });

  let cluster: Cluster | undefined;
  let sql: postgres.Sql | undefined;
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    sql = postgres(process.env.E2E_DATABASE_URL as string, { max: 2, onnotice: () => {} });
    cluster = await startCluster({
      nginxPort: basePort,
      instancePorts: Array.from({ length: instances }, (_, index) => basePort + 1 + index),
      workersPerInstance,
      databaseUrl: process.env.E2E_DATABASE_URL as string,
      redisUrl: process.env.E2E_REDIS_URL ?? "redis://127.0.0.1:6379",
      // Each instance's output, when a run needs reading (one file per start).
      logDir: process.env.SCALE_OUT_LOG_DIR,
      env: clusterAppEnv(CLUSTER_FAKE_URL),
    });
    started({ cluster, sql });
  });
  test.afterAll(async () => {
    await cluster?.close();
    await sql?.end();
  });
}

/**
 * A burst's set-up: the fake provider reset and scripted with `burst.times` copies of the reply `burst.text`, and
 * a new user `name` on `origin` with as many new conversations, one a turn.
 */
export async function burstSetUp(
  origin: string,
  name: string,
  burst: { text: string; chunks: number; chunkDelayMs: number; times: number },
): Promise<{ user: Session; ids: string[] }> {
  await clusterFake.reset();
  await clusterFake.script({ kind: "text", ...burst });
  const user = await signUp(origin, name);
  return { user, ids: await newConversations(user, origin, burst.times) };
}
