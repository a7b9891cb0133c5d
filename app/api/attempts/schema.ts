import { z } from "zod";
import { oneOf } from "@/lib/domain/settings";
import { ATTEMPT_KINDS } from "@/lib/domain/types";

const optionalText = (name: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: `${name} must be at most ${max} characters` })
    .optional()
    .transform((value) => value || undefined);

/** The years a filter date may name: none earlier is stored, and Postgres and JS dates both hold every one of them. */
const YEARS = { min: 1970, max: 9999 } as const;

/** A calendar date, optionally with a time of day (seconds and fractions optional) and a zone: ISO 8601's forms. */
const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-](\d{2}):(\d{2}))?)?$/;

/**
 * The instant `text` names, or null when it is not a real one: a day that exists in its month (2026-02-30 does
 * not, though Date would roll it into March), a time of day within 00:00–23:59:59 and a zone within ±23:59, in
 * the years above (Date takes -271821, which Postgres does not).
 */
export function parseInstant(text: string): Date | null {
  const match = ISO_TIME.exec(text);
  if (!match) return null;
  // Groups: year, month, day, hour, minute, second, zone, zone hours, zone minutes; an absent one counts as 0.
  const [y, m, d, h, min, sec, , zh, zm] = match.slice(1).map((part) => Number(part ?? 0));
  if (y < YEARS.min || y > YEARS.max || h > 23 || min > 59 || sec > 59 || zh > 23 || zm > 59) return null;
  const calendar = new Date(Date.UTC(y, m - 1, d));
  if (calendar.getUTCMonth() !== m - 1 || calendar.getUTCDate() !== d) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

const optionalDate = (name: string) =>
  z
    .string()
    .optional()
    .transform((value, context) => {
      if (!value) return undefined;
      const date = parseInstant(value);
      if (!date) {
        context.addIssue({
          code: "custom",
          message: `${name} must be a real date from ${YEARS.min} to ${YEARS.max}, such as 2026-11-26 or an ISO time`,
        });
        return z.NEVER;
      }
      return date;
    });

/** The `before` cursor a page gave: its last attempt's time (toISOString) and id. */
const CURSOR =
  /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

const cursor = z.string().transform((value, context) => {
  const match = CURSOR.exec(value);
  const createdAt = match ? parseInstant(match[1]) : null;
  if (!match || !createdAt) {
    context.addIssue({ code: "custom", message: "before must be the cursor a previous page gave" });
    return z.NEVER;
  }
  return { createdAt, id: match[2].toLowerCase() };
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
  before: cursor.optional(),
  limit: z.coerce
    .number({ error: "limit must be a whole number from 1 to 200" })
    .int({ error: "limit must be a whole number from 1 to 200" })
    .min(1, { error: "limit must be a whole number from 1 to 200" })
    .max(200, { error: "limit must be a whole number from 1 to 200" })
    .default(50),
});
