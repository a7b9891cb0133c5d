// Pieces of the request schemas and their parsing, so that every route refuses the same way and names the field.
import { z } from "zod";
import { AppError } from "@/lib/domain/errors";
import { hasVisibleCharacter } from "@/lib/text-rules";

/** The query values checked against `schema`; a 400 names the first problem. */
export function parseQuery<Schema extends z.ZodType>(
  schema: Schema,
  values: Record<string, string | undefined>,
): z.output<Schema> {
  return parseAddressValue(schema, values, "query");
}

/** A path segment checked against `schema`; a 400 names the first problem (or, lacking one, the segment `name`). */
export function parsePathSegment<Schema extends z.ZodType>(
  schema: Schema,
  segment: string,
  name: string,
): z.output<Schema> {
  return parseAddressValue(schema, segment, name);
}

function parseAddressValue<Schema extends z.ZodType>(schema: Schema, value: unknown, name: string) {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new AppError("bad_request", parsed.error.issues[0]?.message ?? `bad ${name}`);
  return parsed.data;
}

/** Text of at most `max` characters, kept as written (blank allowed). */
export function textField(key: string, max: number) {
  return z
    .string({ error: `${key} must be text` })
    .max(max, { error: `${key} must be at most ${max} characters` });
}

/**
 * Text of 1 to `max` characters once trimmed, at least one of them visible (a title of zero-width spaces is as
 * blank as an empty one); `whenEmpty` is the refusal of a blank one.
 */
export function nonEmptyTextField(key: string, max: number, whenEmpty = `${key} must not be empty`) {
  return z
    .string({ error: `${key} must be text` })
    .trim()
    .min(1, { error: whenEmpty })
    .max(max, { error: `${key} must be at most ${max} characters` })
    .refine(hasVisibleCharacter, {
      error: `${whenEmpty}: it has no visible character (only spaces, zero-width or format characters)`,
    });
}
