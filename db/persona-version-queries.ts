// Persona versions: every admin save of a persona adds one, holding the fields as that save left them; they are
// listed, opened, compared and restored from the persona's admin page. Restoring saves the old fields again, so it
// adds a version too.

import "server-only";
import { and, desc, eq, max, type SQL } from "drizzle-orm";
import { AppError } from "@/lib/domain/errors";
import { createPersona, type PersonaFields, updatePersona } from "./admin-queries";
import type { Database } from "./client";
import { onlyRow, type Transaction } from "./query-parts";
import { type Persona, type PersonaVersionFields, personas, personaVersions, user } from "./schema";

function versionFields(persona: Persona): PersonaVersionFields {
  const { name, avatar, systemPrompt, modelId, fallbackModelIds, toolNames, settingsOverride } = persona;
  return { name, avatar, systemPrompt, modelId, fallbackModelIds, toolNames, settingsOverride };
}

/** A new persona, with its first version, all or nothing. */
export async function createPersonaWithVersion({
  db,
  fields,
  changedBy,
}: {
  db: Database;
  fields: PersonaFields;
  changedBy: string;
}): Promise<Persona> {
  return db.transaction(async (tx) => {
    const persona = await createPersona({ db: tx as unknown as Database, fields });
    await tx
      .insert(personaVersions)
      .values({ personaId: persona.id, version: 1, fields: versionFields(persona), changedBy });
    return persona;
  });
}

/**
 * Saves changes to a persona and adds the version they make, all or nothing. A persona with no versions yet (the
 * seeded one) first gets its state before this save as version 1, so that it can be restored.
 */
export async function updatePersonaWithVersion({
  db,
  personaId,
  changes,
  changedBy,
}: {
  db: Database;
  personaId: string;
  changes: Partial<PersonaFields>;
  changedBy: string;
}): Promise<Persona> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(personas).where(eq(personas.id, personaId)).for("update");
    if (!before) throw new AppError("not_found", "Persona not found");
    let latest = await latestVersion(tx, personaId);
    if (latest === 0) {
      await tx.insert(personaVersions).values({
        personaId,
        version: 1,
        fields: versionFields(before),
        changedBy: null,
        createdAt: before.updatedAt,
      });
      latest = 1;
    }
    const persona = await updatePersona({ db: tx as unknown as Database, personaId, changes });
    await tx
      .insert(personaVersions)
      .values({ personaId, version: latest + 1, fields: versionFields(persona), changedBy });
    return persona;
  });
}

async function latestVersion(tx: Transaction, personaId: string): Promise<number> {
  const [row] = await tx
    .select({ latest: max(personaVersions.version) })
    .from(personaVersions)
    .where(eq(personaVersions.personaId, personaId));
  return row?.latest ?? 0;
}

/** Versions with who saved each: the list and the single version read the same columns. */
function selectVersions(db: Database, which: SQL | undefined) {
  return db
    .select({
      version: personaVersions.version,
      fields: personaVersions.fields,
      changedByName: user.name,
      createdAt: personaVersions.createdAt,
    })
    .from(personaVersions)
    .leftJoin(user, eq(user.id, personaVersions.changedBy))
    .where(which);
}

/** The persona's versions, newest first. */
export async function listPersonaVersions({ db, personaId }: { db: Database; personaId: string }) {
  return selectVersions(db, eq(personaVersions.personaId, personaId)).orderBy(desc(personaVersions.version));
}

export async function getPersonaVersion({
  db,
  personaId,
  version,
}: {
  db: Database;
  personaId: string;
  version: number;
}) {
  return onlyRow(
    await selectVersions(
      db,
      and(eq(personaVersions.personaId, personaId), eq(personaVersions.version, version)),
    ),
    () => new AppError("not_found", `Version ${version} not found`),
  );
}
