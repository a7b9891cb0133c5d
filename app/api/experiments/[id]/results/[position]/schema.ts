import { z } from "zod";

/** The path's row number: 0 for the dataset's first conversation. */
export const positionSchema = z.coerce
  .number({ error: "position must be a row number (0, 1, 2, …)" })
  .int({ error: "position must be a row number (0, 1, 2, …)" })
  .min(0, { error: "position must be a row number (0, 1, 2, …)" })
  .max(1_000_000, { error: "position must be a row number (0, 1, 2, …)" });
