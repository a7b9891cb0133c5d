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
  const persona =
    (await findPersonaBySlug({ db, slug: model })) ??
    (await listPersonasWithSlugs({ db })).find((row) => row.slug === model) ??
    null;
  if (persona) personaIdBySlug.set(model, persona.id);
  return persona;
}

/**
 * Each model id's persona as this process last found it. A guess only: a call's transcript is looked up under it
 * while its persona is still being read (chat-completions.ts, readCallPersona), and looked up again when the
 * persona found is another. Holds one entry per persona slug called here.
 */
const personaIdBySlug = new Map<string, string>();

/** The id of the persona `model` named when this process last looked it up, if it has. */
export function lastPersonaIdOf(model: string): string | undefined {
  return personaIdBySlug.get(model);
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
