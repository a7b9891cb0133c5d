import { z } from "zod";

/** `GET /api/experiments/:id?format=…`: absent, the experiment as JSON; csv or json, its rows as a download. */
export const experimentQuerySchema = z.object({
  format: z.enum(["csv", "json"], { error: "format must be csv or json" }).optional(),
});
