// Runs once when the server starts: migrate (and seed) the database before the first request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { databaseHandle } = await import("./db/client");
  await databaseHandle().ready;
}
