// Settings: the current version of the context policy.

import "server-only";
import { desc } from "drizzle-orm";
import { AppError } from "@/lib/domain/errors";
import type { Database } from "./client";
import { preparedStatement } from "./prepared-statements";
import { onlyRow } from "./query-parts";
import { settingsVersions } from "./schema";

export async function getCurrentSettings({ db }: { db: Database }) {
  return onlyRow(
    await currentSettingsStatement(db).execute(),
    () => new AppError("internal", "The context policy is missing: the database was not seeded."),
  );
}

const currentSettingsStatement = preparedStatement("getCurrentSettings", (db) =>
  db.select().from(settingsVersions).orderBy(desc(settingsVersions.version)).limit(1),
);
