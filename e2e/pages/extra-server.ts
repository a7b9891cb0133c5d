// A second (or third) app server for the specs that need more than one instance: `next start` of the same build
// on another port, sharing the run's Postgres and the fake providers; ready once its readiness probe says so
// (GET /api/ready: the database answers with this build's migrations), as a load balancer would see it.
import { type ChildProcess, spawn } from "node:child_process";

export const FAKE_PROVIDERS_URL = `http://127.0.0.1:${process.env.E2E_FAKE_PORT ?? 4010}`;

export interface ExtraServer {
  origin: string;
  process: ChildProcess;
}

/** Starts a server on `port` with the e2e settings, `env` added; resolves once it is ready. */
export async function startExtraServer(port: number, env: Record<string, string> = {}): Promise<ExtraServer> {
  const origin = `http://127.0.0.1:${port}`;
  const server = spawn("node_modules/.bin/next", ["start", "-p", String(port), "-H", "127.0.0.1"], {
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: "1",
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next",
      GLASSBOX_TEST: "1",
      CHAT_RATE_LIMIT_PER_MINUTE: "1000",
      AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-e2e-secret",
      DATABASE_URL: process.env.E2E_DATABASE_URL,
      REDIS_URL: process.env.E2E_REDIS_URL ?? "redis://127.0.0.1:6379",
      OPENAI_API_KEY: "sk-fake-e2e",
      OPENAI_BASE_URL: `${FAKE_PROVIDERS_URL}/v1`,
      ...env,
    },
    stdio: "ignore",
  });
  // A minute at most: a cold start on a loaded machine takes a while.
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    if (server.exitCode !== null) break;
    try {
      if ((await fetch(`${origin}/api/ready`)).ok) return { origin, process: server };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  server.kill("SIGKILL");
  throw new Error(`the server on ${origin} did not start`);
}
