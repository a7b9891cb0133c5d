import { z } from "zod";

export const SEARCH_QUERY_MAX_CHARS = 200;

/** `GET /api/search?q=…`: the words or characters to find in titles and messages. */
export const searchQuerySchema = z.object({
  q: z
    .string({ error: "q is required: the text to search for" })
    .trim()
    .min(1, { error: "q must not be empty" })
    .max(SEARCH_QUERY_MAX_CHARS, { error: `q must be at most ${SEARCH_QUERY_MAX_CHARS} characters` })
    // Postgres text cannot hold NUL, and no title or message contains one.
    .refine((value) => !value.includes("\u0000"), { error: "q must not contain NUL characters" }),
});
