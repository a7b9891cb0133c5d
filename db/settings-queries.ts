// Settings: the current version of the context policy.

import "server-only";
import { desc, eq } from "drizzle-orm";
import { AppError } from "@/lib/domain/errors";
import type { Database } from "./client";
import { preparedStatement } from "./prepared-statements";
import { onlyRow } from "./query-parts";
import { settingsVersions, user } from "./schema";

export async function getCurrentSettings({ db }: { db: Database }) {
  return onlyRow(
    await currentSettingsStatement(db).execute(),
    () => new AppError("internal", "The context policy is missing: the database was not seeded."),
  );
}

const currentSettingsStatement = preparedStatement("getCurrentSettings", (db) =>
  db.select().from(settingsVersions).orderBy(desc(settingsVersions.version)).limit(1),
);

/** One version of the policy, with who saved it. */
export async function getSettingsVersion({ db, version }: { db: Database; version: number }) {
  return onlyRow(
    await db
      .select({
        version: settingsVersions.version,
        settings: settingsVersions.settings,
        changedByName: user.name,
        createdAt: settingsVersions.createdAt,
      })
      .from(settingsVersions)
      .leftJoin(user, eq(user.id, settingsVersions.changedBy))
      .where(eq(settingsVersions.version, version)),
    () => new AppError("not_found", `Version ${version} not found`),
  );
}
