// Personas: reading them, the default one, the one an imported conversation talks to.

import "server-only";
import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import { AppError } from "@/lib/domain/errors";
import type { Database } from "./client";
import { onlyRow } from "./query-parts";
import { personas } from "./schema";

export async function getPersona({ db, personaId }: { db: Database; personaId: string }) {
  return onlyRow(await db.select().from(personas).where(eq(personas.id, personaId)).limit(1), "Persona");
}

export async function listPersonas({ db }: { db: Database }) {
  return db.select().from(personas).orderBy(asc(personas.createdAt));
}

export async function getDefaultPersona({ db }: { db: Database }) {
  return onlyRow(
    await db.select().from(personas).orderBy(asc(personas.createdAt)).limit(1),
    () => new AppError("not_found", "No persona exists yet: an admin must create one."),
  );
}

/** The persona an imported conversation talks to: the same id, else the same name, else the default one. */
export async function findPersonaForImport({ db, id, name }: { db: Database; id: string; name: string }) {
  const [byId] = z.uuid().safeParse(id).success
    ? await db.select().from(personas).where(eq(personas.id, id)).limit(1)
    : [];
  if (byId) return { persona: byId, matchedBy: "id" as const };
  const [byName] = await db
    .select()
    .from(personas)
    .where(eq(personas.name, name))
    .orderBy(asc(personas.createdAt))
    .limit(1);
  if (byName) return { persona: byName, matchedBy: "name" as const };
  return { persona: await getDefaultPersona({ db }), matchedBy: "default" as const };
}
