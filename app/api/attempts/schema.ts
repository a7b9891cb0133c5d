import { z } from "zod";
import { ATTEMPT_KINDS } from "@/db/schema";
import { oneOf } from "@/lib/context/settings";

const optionalText = (name: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: `${name} must be at most ${max} characters` })
    .optional()
    .transform((value) => value || undefined);

const optionalDate = (name: string) =>
  z
    .string()
    .optional()
    .transform((value, context) => {
      if (!value) return undefined;
      const date = new Date(value);
      if (Number.isNaN(date.getTime())) {
        context.addIssue({
          code: "custom",
          message: `${name} must be a date such as 2026-11-26 or an ISO time`,
        });
        return z.NEVER;
      }
      return date;
    });

/** `GET /api/attempts?…`: every filter optional; `before` is the cursor the previous page returned. */
export const attemptSearchQuerySchema = z.strictObject({
  model: optionalText("model", 200),
  status: z.enum(["ok", "error", "stopped"], { error: "status must be ok, error or stopped" }).optional(),
  kind: oneOf("kind", ATTEMPT_KINDS).optional(),
  tag: optionalText("tag", 100),
  action: optionalText("action", 100),
  from: optionalDate("from"),
  to: optionalDate("to"),
  before: z
    .string()
    .regex(/^\d{4}-\d\d-\d\dT[^_]+_[0-9a-f-]{36}$/i, {
      error: "before must be the cursor a previous page gave",
    })
    .optional(),
  limit: z.coerce
    .number({ error: "limit must be a whole number from 1 to 200" })
    .int({ error: "limit must be a whole number from 1 to 200" })
    .min(1, { error: "limit must be a whole number from 1 to 200" })
    .max(200, { error: "limit must be a whole number from 1 to 200" })
    .default(50),
});
