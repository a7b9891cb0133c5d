// The context policy: one zod schema with defaults and ranges, and the precedence resolver
// conversation override → persona override → global default, per key.

import { z } from "zod";

/** A whole number in [min, max], one message for every way it can be wrong (the API schemas use it too). */
export function integerIn(key: string, min: number, max: number) {
  const message = `${key} must be a whole number from ${min} to ${max}`;
  return z
    .number({ error: message })
    .int({ error: message })
    .min(min, { error: message })
    .max(max, { error: message });
}

/** One of `values`, naming them when it is not (the API schemas use it too). */
export function oneOf<const T extends readonly [string, ...string[]]>(key: string, values: T) {
  return z.enum(values, { error: `${key} must be one of: ${values.join(", ")}` });
}

function textUpTo(key: string, max: number) {
  return z
    .string({ error: `${key} must be text` })
    .max(max, { error: `${key} must be at most ${max} characters` });
}

export const settingsSchema = z.object({
  history: z.object({
    messageFetchLimit: integerIn("history.messageFetchLimit", 1, 10_000).default(80),
    maxItems: integerIn("history.maxItems", 2, 10_000).nullable().default(null),
    speakerLabels: oneOf("history.speakerLabels", ["auto", "always", "never"]).default("auto"),
  }),
  media: z.object({
    window: integerIn("media.window", 0, 1_000).default(10),
    imageMessageLimit: integerIn("media.imageMessageLimit", 0, 100).default(3),
    maxImagesPerRequest: integerIn("media.maxImagesPerRequest", 0, 20).default(5),
    imageInputSelection: oneOf("media.imageInputSelection", [
      "user_turn_only",
      "user_then_assistant",
    ]).default("user_then_assistant"),
  }),
  contextNote: z.object({
    text: textUpTo("contextNote.text", 4_000).default(""),
    depth: integerIn("contextNote.depth", 0, 1_000).default(4),
    role: oneOf("contextNote.role", ["user", "system", "assistant"]).default("user"),
    frequency: integerIn("contextNote.frequency", 0, 1_000).default(1),
  }),
  summary: z.object({
    mode: oneOf("summary.mode", ["token", "turn", "manual"]).default("token"),
    thresholdPercent: integerIn("summary.thresholdPercent", 10, 95).default(64),
    turnThreshold: integerIn("summary.turnThreshold", 5, 1_000).default(32),
    keepRecentTurns: integerIn("summary.keepRecentTurns", 1, 20).default(15),
    modelId: textUpTo("summary.modelId", 200).nullable().default(null),
  }),
  tools: z.object({
    outputRetentionTurns: integerIn("tools.outputRetentionTurns", 0, 1_000).default(10),
    pruneMinChars: integerIn("tools.pruneMinChars", 1, 1_000_000).default(800),
    pruneHead: integerIn("tools.pruneHead", 0, 100_000).default(256),
    pruneTail: integerIn("tools.pruneTail", 0, 100_000).default(128),
  }),
  reasoning: z.object({
    persist: oneOf("reasoning.persist", ["conversation", "next_reply", "disabled"]).default("conversation"),
  }),
  budget: z.object({
    /** null: the model's max output, capped at 4 096. */
    reservedOutputTokens: integerIn("budget.reservedOutputTokens", 0, 1_000_000).nullable().default(null),
    safetyMarginPercent: integerIn("budget.safetyMarginPercent", 0, 50).default(20),
  }),
  stop: z.object({
    strings: z
      .array(textUpTo("stop.strings[]", 200).min(1, { error: "stop.strings[] must not be empty" }), {
        error: "stop.strings must be a list of text",
      })
      .max(40, { error: "stop.strings must have at most 40 entries" })
      .default([]),
    speakerPattern: z.boolean({ error: "stop.speakerPattern must be true or false" }).default(false),
  }),
  thinking: z.object({
    enabled: z.boolean({ error: "thinking.enabled must be true or false" }).default(false),
    budgetTokens: integerIn("thinking.budgetTokens", 0, 1_000_000).default(2_048),
  }),
  cache: z.object({
    breakpoints: oneOf("cache.breakpoints", ["on", "off"]).default("on"),
  }),
  keyContextReminder: textUpTo("keyContextReminder", 2_000).default(""),
});

export type ResolvedSettings = z.infer<typeof settingsSchema>;

type WithoutDefaults<Shape extends z.ZodRawShape> = {
  [Key in keyof Shape]: Shape[Key] extends z.ZodDefault<infer Inner> ? Inner : Shape[Key];
};

/** The same fields without their defaults: zod 4 fills defaults even inside optional fields, and an override
 *  must carry only the keys it names, or it would reset every other key of the section to its default. */
function withoutDefaults<Shape extends z.ZodRawShape>(shape: Shape): WithoutDefaults<Shape> {
  return Object.fromEntries(
    Object.entries(shape).map(([key, field]) => [
      key,
      field instanceof z.ZodDefault ? field.unwrap() : field,
    ]),
  ) as WithoutDefaults<Shape>;
}

function overrideSection<Shape extends z.ZodRawShape>(section: z.ZodObject<Shape>) {
  return z.object(withoutDefaults(section.shape)).partial().strict();
}

/** An override document: any subset of the keys, each validated by the same rules. */
export const settingsOverrideSchema = z
  .object({
    history: overrideSection(settingsSchema.shape.history),
    media: overrideSection(settingsSchema.shape.media),
    contextNote: overrideSection(settingsSchema.shape.contextNote),
    summary: overrideSection(settingsSchema.shape.summary),
    tools: overrideSection(settingsSchema.shape.tools),
    reasoning: overrideSection(settingsSchema.shape.reasoning),
    budget: overrideSection(settingsSchema.shape.budget),
    stop: overrideSection(settingsSchema.shape.stop),
    thinking: overrideSection(settingsSchema.shape.thinking),
    cache: overrideSection(settingsSchema.shape.cache),
    keyContextReminder: settingsSchema.shape.keyContextReminder.unwrap(),
  })
  .partial()
  .strict();

export type SettingsOverride = z.input<typeof settingsOverrideSchema>;

// The full policy document: every section required, unknown keys refused (a typo must not be silently dropped).
// Keys missing inside a section take their §4 default.
function section<Shape extends z.ZodRawShape>(name: string, shape: Shape) {
  return z.object(shape, { error: notAnObject(name) }).strict();
}

/** Only the "wrong type" issue gets this message; unknown keys keep zod's own ("Unrecognized key: …"). */
function notAnObject(name: string) {
  return (issue: { code?: string }) =>
    issue.code === "invalid_type" ? `${name} must be an object` : undefined;
}

/** The full policy document the admin API takes, and an imported attempt's settings (lib/export). */
export const policyDocumentSchema = z
  .object(
    {
      history: section("history", settingsSchema.shape.history.shape),
      media: section("media", settingsSchema.shape.media.shape),
      contextNote: section("contextNote", settingsSchema.shape.contextNote.shape),
      summary: section("summary", settingsSchema.shape.summary.shape),
      tools: section("tools", settingsSchema.shape.tools.shape),
      reasoning: section("reasoning", settingsSchema.shape.reasoning.shape),
      budget: section("budget", settingsSchema.shape.budget.shape),
      stop: section("stop", settingsSchema.shape.stop.shape),
      thinking: section("thinking", settingsSchema.shape.thinking.shape),
      cache: section("cache", settingsSchema.shape.cache.shape),
      keyContextReminder: settingsSchema.shape.keyContextReminder,
    },
    { error: notAnObject("settings") },
  )
  .strict();

const SECTION_KEYS = Object.keys(settingsSchema.shape) as (keyof ResolvedSettings)[];

/** The global defaults. */
export function defaultSettings(): ResolvedSettings {
  return settingsSchema.parse({
    history: {},
    media: {},
    contextNote: {},
    summary: {},
    tools: {},
    reasoning: {},
    budget: {},
    stop: {},
    thinking: {},
    cache: {},
  });
}

/**
 * Resolve per key: the first layer that sets a key wins, in the order given (conversation, persona, global).
 * Overrides must already be validated; keys set to undefined do not count as set.
 */
export function resolveSettings(
  global: ResolvedSettings,
  ...overridesMostSpecificFirst: (SettingsOverride | null | undefined)[]
): ResolvedSettings {
  const resolved = copyJson(global) as Record<string, unknown>;
  const layers = overridesMostSpecificFirst
    .filter((layer): layer is SettingsOverride => layer != null)
    .reverse();
  for (const layer of layers) {
    for (const section of SECTION_KEYS) {
      const value = (layer as Record<string, unknown>)[section];
      if (value === undefined) continue;
      if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        const target = resolved[section] as Record<string, unknown>;
        for (const [key, keyValue] of Object.entries(value)) {
          if (keyValue !== undefined) target[key] = copyJson(keyValue);
        }
      } else {
        resolved[section] = value;
      }
    }
  }
  return resolved as ResolvedSettings;
}

/**
 * A deep copy of a JSON value (settings are stored as jsonb, so they are JSON): every turn resolves its settings,
 * and structuredClone, made for any value, costs several times this loop.
 */
function copyJson<T>(value: T): T {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(copyJson) as T;
  const copy: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) copy[key] = copyJson(entry);
  return copy as T;
}

/** The reserved output budget: the configured value, else the model's max output capped at 4 096. */
export function reservedOutputTokens(settings: ResolvedSettings, modelMaxOutputTokens: number): number {
  return settings.budget.reservedOutputTokens ?? Math.min(modelMaxOutputTokens, 4_096);
}

/** One line of help per key, for the admin form and the inspector. */
export const SETTING_HELP: Record<string, string> = {
  "history.messageFetchLimit": "How many of the newest unsummarised messages are loaded for a turn.",
  "history.maxItems": "Cap on history items sent; the window keeps the newest. Empty means no cap.",
  "history.speakerLabels":
    "Prefix turns with 'Name: '. Auto turns them on with more than one human or persona.",
  "media.window":
    "Only media in the newest N messages can be shown to the model; older media becomes a notice.",
  "media.imageMessageLimit":
    "How many of the newest messages with images render their images (emoji and stickers aside).",
  "media.maxImagesPerRequest": "Hard cap on images in one request, newest first.",
  "media.imageInputSelection":
    "Which turns may contribute images: only the user's, or the user's then the assistant's.",
  "contextNote.text": "A note injected into the history at a depth (the author's note).",
  "contextNote.depth":
    "How many items from the end the note goes; 0 is the very end, ≥ the history length the top.",
  "contextNote.role": "The role the note is sent with.",
  "contextNote.frequency": "Inject the note every N user turns; 0 never.",
  "summary.mode": "When to summarise old turns: by token use, by turn count, or only when asked.",
  "summary.thresholdPercent":
    "Token mode: summarise when the estimate reaches this share of the usable window.",
  "summary.turnThreshold": "Turn mode: summarise when this many user turns are unsummarised.",
  "summary.keepRecentTurns": "How many recent user turns stay verbatim after a summary.",
  "summary.modelId": "The model that writes summaries; empty means the persona's model.",
  "tools.outputRetentionTurns":
    "Tool outputs older than this many turns are pruned to head and tail; 0 keeps all.",
  "tools.pruneMinChars": "Only tool outputs at least this long are pruned.",
  "tools.pruneHead": "Characters kept from the start of a pruned tool output.",
  "tools.pruneTail": "Characters kept from the end of a pruned tool output.",
  "reasoning.persist": "Replay stored reasoning for the whole conversation, only the next reply, or never.",
  "budget.reservedOutputTokens":
    "Tokens kept free for the reply. Empty means the model's max output, capped at 4 096.",
  "budget.safetyMarginPercent": "Extra share of the window left unused to absorb token-estimate error.",
  "stop.strings": "Strings that end the reply; capped at what the model accepts.",
  "stop.speakerPattern": "Also stop at a new line starting with a participant's name and a colon.",
  "thinking.enabled": "Ask reasoning models to think before answering.",
  "thinking.budgetTokens": "Token budget for thinking.",
  "cache.breakpoints":
    "Prompt caching: Anthropic cache breakpoints after the system block, the summary and the history, and a per-conversation OpenAI prompt_cache_key. Off sends neither.",
  keyContextReminder: "Text appended to the system prompt under '# KEY CONTEXT REMINDER' on every turn.",
};
