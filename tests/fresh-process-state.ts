// Runs before each test file. Test files share their worker's process and module cache (vitest.config.ts,
// `isolate: false`), so each file ends by putting the process back the way a new one would be: the environment
// as the file found it, the connections it opened closed (the same closers a shutdown runs), and the process-wide
// singletons the app keeps on globalThis (database handle, auth, buses, counters, shutdown state) forgotten, so
// the next file opens its own against its own environment.
import { afterAll } from "vitest";
import { withTimeout } from "@/lib/shutdown";
import { runShutdownClosers } from "@/lib/shutdown-hooks";
import { settleBackgroundWork } from "./background-work";

/** Singletons kept across files: each guards something installed once per process (signal handlers, a timer). */
const KEPT_FOR_THE_PROCESS = new Set(["glassboxShutdownHandlers", "glassboxTurnRecovery"]);
const CLOSE_TIMEOUT_MS = 5_000;

const environmentAtStart = { ...process.env };

afterAll(async () => {
  // As a shutdown does (lib/shutdown.ts): the experiments, titles and live events the file's last requests began
  // are stored before their connections close, instead of failing against a closed pool.
  await withTimeout(settleBackgroundWork(), CLOSE_TIMEOUT_MS);
  await runShutdownClosers("streams", CLOSE_TIMEOUT_MS);
  await runShutdownClosers("connections", CLOSE_TIMEOUT_MS);
  const globals = globalThis as Record<string, unknown> & { glassboxDatabase?: { close(): Promise<void> } };
  await globals.glassboxDatabase?.close().catch(() => {});
  for (const name of Object.keys(globals)) {
    if (name.startsWith("glassbox") && !KEPT_FOR_THE_PROCESS.has(name)) delete globals[name];
  }
  for (const name of Object.keys(process.env)) {
    if (!(name in environmentAtStart)) delete process.env[name];
  }
  Object.assign(process.env, environmentAtStart);
});
