// Blocks: the users a persona does not answer, for now or for good.

import "server-only";
import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { Database } from "./client";
import { encodedPlaceholder, preparedStatement } from "./prepared-statements";
import { personaUserBlocks, user } from "./schema";

/** Blocks of a persona that have not expired. */
export async function listActiveBlocks({
  db,
  personaId,
  now,
}: {
  db: Database;
  personaId: string;
  now: Date;
}) {
  return activeBlocksStatement(db).execute({ personaId, now });
}

const activeBlocksStatement = preparedStatement("listActiveBlocks", (db) =>
  db
    .select({ block: personaUserBlocks, userName: user.name })
    .from(personaUserBlocks)
    .innerJoin(user, eq(user.id, personaUserBlocks.userId))
    .where(
      and(
        eq(personaUserBlocks.personaId, sql.placeholder("personaId")),
        or(
          isNull(personaUserBlocks.expiresAt),
          gt(personaUserBlocks.expiresAt, encodedPlaceholder("now", personaUserBlocks.expiresAt)),
        ),
      ),
    ),
);
