// A call's sampling and length parameters, read as the turn's CallOptions. Chat completions: `temperature`,
// `top_p`, `max_completion_tokens` (or the older `max_tokens`) and `stop` (a string or up to 4); the Responses
// API: `temperature`, `top_p`, `max_output_tokens`. A value outside OpenAI's own range is a 400 naming the field;
// a valid one is honoured within the persona's limits by phase B (lib/context/call-options.ts): the reply's length
// never above the output the persona's budget reserves, the stop strings after the persona's own under the
// model's cap, temperature and top-p passed to the provider (whose adapter says, on the attempt, when a model
// takes no such setting).

import "server-only";
import { z } from "zod";
import type { CallOptions } from "@/lib/domain/types";
import { invalidField } from "./errors";

/** The most stop strings a call may send (OpenAI's limit), and the longest one (a persona's stop string's). */
const MAX_STOP_STRINGS = 4;
const MAX_STOP_CHARS = 200;

/** A number from 0 to `max`, or null or absent. */
function fromZeroTo(max: number) {
  const error = `must be from 0 to ${max}`;
  return z
    .number({ error: `must be a number from 0 to ${max}` })
    .min(0, { error })
    .max(max, { error })
    .nullable()
    .optional();
}

const temperature = fromZeroTo(2);
const topP = fromZeroTo(1);
const tokens = z
  .number({ error: "must be a whole number of tokens, at least 1" })
  .int({ error: "must be a whole number of tokens, at least 1" })
  .min(1, { error: "must be a whole number of tokens, at least 1" })
  .max(10_000_000, { error: "is more tokens than any model writes" })
  .nullable()
  .optional();
const stopString = z
  .string({ error: "must be text" })
  .min(1, { error: "must not be empty" })
  .max(MAX_STOP_CHARS, { error: `must be at most ${MAX_STOP_CHARS} characters` });
const stop = z
  .union(
    [
      stopString,
      z
        .array(stopString, { error: "must be text or a list of text" })
        .max(MAX_STOP_STRINGS, { error: `must be at most ${MAX_STOP_STRINGS} strings` }),
    ],
    { error: `must be text or a list of up to ${MAX_STOP_STRINGS} strings` },
  )
  .nullable()
  .optional();

const chatOptions = z.object({
  temperature,
  top_p: topP,
  max_tokens: tokens,
  max_completion_tokens: tokens,
  stop,
});

const responsesOptions = z.object({ temperature, top_p: topP, max_output_tokens: tokens });

/** The chat completion's options; undefined when it sends none. */
export function chatCallOptions(body: Record<string, unknown>): CallOptions | undefined {
  const options = parseOptions(chatOptions, body);
  const stops = options.stop === null || options.stop === undefined ? [] : [options.stop].flat();
  return callOptions({
    temperature: options.temperature,
    topP: options.top_p,
    // The newer name wins when a client sends both.
    maxOutputTokens: options.max_completion_tokens ?? options.max_tokens,
    stop: stops.length > 0 ? stops : undefined,
  });
}

/** The Responses call's options; undefined when it sends none. */
export function responsesCallOptions(body: Record<string, unknown>): CallOptions | undefined {
  const options = parseOptions(responsesOptions, body);
  return callOptions({
    temperature: options.temperature,
    topP: options.top_p,
    maxOutputTokens: options.max_output_tokens,
  });
}

function parseOptions<Schema extends z.ZodType>(
  schema: Schema,
  body: Record<string, unknown>,
): z.infer<Schema> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const param = issue.path
    .map((key, index) => (typeof key === "number" ? `[${key}]` : `${index > 0 ? "." : ""}${String(key)}`))
    .join("");
  throw invalidField(param, issue.message);
}

/** Only the options given (a null is as good as absent, as OpenAI takes it); undefined when none is. */
function callOptions(
  options: { [Key in keyof CallOptions]: CallOptions[Key] | null },
): CallOptions | undefined {
  const given = Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== null && value !== undefined),
  ) as CallOptions;
  return Object.keys(given).length > 0 ? given : undefined;
}
