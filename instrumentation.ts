// Runs once when the server starts: forwarding headers trusted only from TRUSTED_PROXIES, then migrate (and
// seed) the database before the first request, then sweep for turns a dead instance left running. A database that
// is down at start-up does not stop the server: routes answer 503 until it is back, and the migration is tried
// again.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installForwardingScrubber } = await import("./lib/api/client-address");
  await installForwardingScrubber();
  const { databaseHandle, getDb } = await import("./db/client");
  await databaseHandle().ready.catch(() => {});
  const { startTurnRecovery } = await import("./lib/chat/turn-recovery");
  startTurnRecovery(getDb);
}
