// Personas: reading them, the default one, the one an imported conversation talks to.

import "server-only";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { AppError } from "@/lib/domain/errors";
import type { Database } from "./client";
import { preparedStatement } from "./prepared-statements";
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

/** The persona with this slug, or null (a persona whose slug is not written yet is found by listPersonasWithSlugs). */
export async function findPersonaBySlug({ db, slug }: { db: Database; slug: string }) {
  const [row] = await personaBySlugStatement(db).execute({ slug });
  return row ?? null;
}

/** Every gateway call names its persona by slug: prepared, like a turn's reads. */
const personaBySlugStatement = preparedStatement("findPersonaBySlug", (db) =>
  db
    .select()
    .from(personas)
    .where(eq(personas.slug, sql.placeholder("slug")))
    .limit(1),
);

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

/** A name as a gateway model id: lowercase letters and digits, words joined by one hyphen ("Ada's Tutor" → "ada-s-tutor"). */
export function slugOf(name: string): string {
  const words = name
    .normalize("NFKD")
    // The accents NFKD split off their letters: "é" is "e".
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return words.slice(0, 60).replace(/-+$/, "") || "persona";
}

/**
 * Every persona, each with its slug: one made after the migration (by an admin, the seed or an import) gets its
 * slug on first use here, its name's, or with the start of its id after it when another persona has that one.
 */
export async function listPersonasWithSlugs({ db }: { db: Database }) {
  const rows = await listPersonas({ db });
  if (rows.every((row) => row.slug !== null)) return rows;
  const taken = new Set(rows.flatMap((row) => (row.slug ? [row.slug] : [])));
  for (const row of rows) {
    if (row.slug !== null) continue;
    const base = slugOf(row.name);
    // A repeated name takes the random end of the persona's id (a UUIDv7 begins with its time, which repeats).
    const hex = row.id.replace(/-/g, "");
    const slug = taken.has(base) ? `${base}-${hex.slice(-12)}` : base;
    // Another instance may assign the same persona's slug at once: its write wins, and is read back below. A slug
    // taken meanwhile by another persona falls back to the whole id, which no other persona has.
    await db
      .update(personas)
      .set({ slug })
      .where(and(eq(personas.id, row.id), isNull(personas.slug)))
      .catch(() =>
        db
          .update(personas)
          .set({ slug: `${base}-${hex}` })
          .where(and(eq(personas.id, row.id), isNull(personas.slug)))
          .catch(() => {}),
      );
    taken.add(slug);
  }
  return listPersonas({ db });
}
