// Fresh databases for test runs on a real Postgres server.
import postgres from "postgres";

export async function createFreshDatabase(
  baseUrl: string,
  purpose: string,
): Promise<{ url: string; name: string }> {
  const name = `glassbox_${purpose}_${Date.now()}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), name };
}

export async function dropDatabase(baseUrl: string, name: string): Promise<void> {
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
