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

/** The persona `model` names, when the key may use it: otherwise 404 model_not_found, whether it exists or not. */
export async function personaForModel(db: Database, key: ApiKey, model: string): Promise<Persona> {
  // One row by its slug; a persona whose slug is not written yet is found (and given it) by the whole list.
  const persona =
    (await findPersonaBySlug({ db, slug: model })) ??
    (await listPersonasWithSlugs({ db })).find((row) => row.slug === model);
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
