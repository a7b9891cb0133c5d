import { z } from "zod";
import { nonEmptyTextField } from "@/app/api/request-fields";

/** How many personas one key's scope may name. */
export const MAX_KEY_PERSONAS = 100;

export const createKeySchema = z
  .object({
    name: nonEmptyTextField("name", 100),
    /** The personas the key may talk to; absent or null: every persona. */
    personaIds: z
      .array(z.uuid({ error: "personaIds must hold persona ids" }), { error: "personaIds must be a list" })
      .min(1, { error: "personaIds must name at least one persona (leave it out for every persona)" })
      .max(MAX_KEY_PERSONAS, { error: `personaIds must name at most ${MAX_KEY_PERSONAS} personas` })
      .nullable()
      .optional(),
  })
  .strict();
