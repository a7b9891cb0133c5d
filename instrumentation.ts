// Runs once when the server starts: migrate (and seed) the database before the first request, then sweep for
// turns a dead instance left running.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { databaseHandle, getDb } = await import("./db/client");
  await databaseHandle().ready;
  const { startTurnRecovery } = await import("./lib/chat/turn-recovery");
  startTurnRecovery(getDb);
}
