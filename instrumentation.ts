// Runs once when the server starts: the environment is validated (a bad variable stops the server here, named,
// instead of failing some request later), SIGTERM taken over for a graceful shutdown, forwarding headers trusted
// only from TRUSTED_PROXIES, then migrate (and seed) the database before the first request, loading the token
// counter's tables meanwhile, then sweep for turns a dead instance left running. A database that is down at
// start-up does not stop the server: routes answer 503 until it is back, and the migration is tried again.
export async function register() {
  // NEXT_RUNTIME is Next.js's own, replaced at build time, so it is read here rather than through lib/config/env.ts.
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { exitUnlessEnvironmentValid } = await import("@/lib/config/env");
  exitUnlessEnvironmentValid();
  // SIGTERM drains this instance (docs/deploy.md#graceful-shutdown); taken over before anything can wait.
  const { installShutdownHandlers } = await import("./lib/shutdown");
  installShutdownHandlers();
  const { installForwardingScrubber } = await import("./lib/api/client-address");
  await installForwardingScrubber();
  const { databaseHandle, getDb } = await import("./db/client");
  const migrated = databaseHandle().ready.catch(() => {});
  // The token counter's tables load while the migration waits on the database, not in the first turn.
  const { loadCachedTokenizers } = await import("@/lib/context/token-cache");
  loadCachedTokenizers();
  await migrated;
  const { startTurnRecovery } = await import("@/lib/chat/turn-control/turn-recovery");
  startTurnRecovery(getDb);
}
