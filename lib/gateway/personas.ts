// The personas a key may talk to, each named by its slug: the model id an OpenAI client sends.

import "server-only";
import type { Database } from "@/db/client";
import { findPersonaBySlug, listPersonasWithSlugs } from "@/db/persona-queries";
import type { ApiKey, Persona } from "@/db/schema";
import { modelNotFound } from "./errors";

export async function personasOfKey(db: Database, key: ApiKey): Promise<Persona[]> {
  // A persona whose slug could not be written yet has no model id to be called by.
  const rows = (await listPersonasWithSlugs({ db })).filter((row) => row.slug !== null);
  if (key.personaIds === null) return rows;
  const scope = new Set(key.personaIds);
  return rows.filter((row) => scope.has(row.id));
}

/**
 * The persona `model` names, or null: looked up from the model id alone, so it can run while the key is checked
 * (lib/gateway/route.ts). Whether the key may use it is `personaOfKey`'s to say.
 */
export async function findPersonaForModel(db: Database, model: string): Promise<Persona | null> {
  // One row by its slug; a persona whose slug is not written yet is found (and given it) by the whole list.
  return (
    (await findPersonaBySlug({ db, slug: model })) ??
    (await listPersonasWithSlugs({ db })).find((row) => row.slug === model) ??
    null
  );
}

/** The persona found for `model` when the key may use it: otherwise 404 model_not_found, whether it exists or not. */
export function personaOfKey(key: ApiKey, model: string, persona: Persona | null): Persona {
  if (!persona || (key.personaIds !== null && !key.personaIds.includes(persona.id)))
    throw modelNotFound(model);
  return persona;
}

/** OpenAI's model object for a persona. */
export function modelObject(persona: Persona) {
  return {
    id: persona.slug,
    object: "model" as const,
    created: Math.floor(persona.createdAt.getTime() / 1000),
    owned_by: "glassbox",
  };
}
