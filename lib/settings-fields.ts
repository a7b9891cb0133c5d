// Every §4 key described from the one zod schema (kind, range, default, help), so the admin form and the
// validation tests read the ranges from where they are enforced and can never drift from them. Client-safe: zod and
// the settings schema only.

import { z } from "zod";
import { defaultSettings, SETTING_HELP, settingsSchema } from "@/lib/domain/settings";

export interface SettingField {
  /** Dotted key, e.g. "history.messageFetchLimit"; top-level keys have no dot. */
  key: string;
  /** The key in words, e.g. "Messages loaded per turn". */
  label: string;
  section: string;
  sectionLabel: string;
  kind: "integer" | "enum" | "text" | "boolean" | "strings";
  nullable: boolean;
  min?: number;
  max?: number;
  /** text: longest allowed; strings: longest entry. */
  maxLength?: number;
  /** strings: most entries. */
  maxItems?: number;
  values?: string[];
  default: unknown;
  help: string;
}

const SECTION_LABELS: Record<string, string> = {
  history: "History",
  media: "Media",
  contextNote: "Context note",
  summary: "Summary",
  tools: "Tool outputs",
  reasoning: "Reasoning",
  budget: "Budget",
  stop: "Stop strings",
  thinking: "Thinking",
  cache: "Prompt caching",
  keyContextReminder: "Key context reminder",
};

/** Each key in words, for people who do not know the keys; the key is shown beside it. */
export const SETTING_LABELS: Record<string, string> = {
  "history.messageFetchLimit": "Messages loaded per turn",
  "history.maxItems": "Most history items sent",
  "history.speakerLabels": "Speaker name labels",
  "media.window": "Messages whose media can be shown",
  "media.imageMessageLimit": "Messages whose images are sent",
  "media.maxImagesPerRequest": "Most images per request",
  "media.imageInputSelection": "Whose images are sent",
  "contextNote.text": "Context note text",
  "contextNote.depth": "Context note depth",
  "contextNote.role": "Context note role",
  "contextNote.frequency": "Context note every N turns",
  "summary.mode": "When to summarise",
  "summary.thresholdPercent": "Summarise at % of the window",
  "summary.turnThreshold": "Summarise after N turns",
  "summary.keepRecentTurns": "Recent turns kept verbatim",
  "summary.modelId": "Summary model",
  "tools.outputRetentionTurns": "Tool outputs kept whole for N turns",
  "tools.pruneMinChars": "Prune tool outputs longer than",
  "tools.pruneHead": "Characters kept from the start",
  "tools.pruneTail": "Characters kept from the end",
  "reasoning.persist": "Replay stored reasoning",
  "budget.reservedOutputTokens": "Tokens reserved for the reply",
  "budget.safetyMarginPercent": "Safety margin %",
  "stop.strings": "Stop strings",
  "stop.speakerPattern": "Stop at a speaker's name",
  "thinking.enabled": "Thinking",
  "thinking.budgetTokens": "Thinking budget (tokens)",
  "cache.breakpoints": "Cache breakpoints and cache key",
  keyContextReminder: "Key context reminder",
};

function maxLengthCheck(schema: z.ZodType): number | undefined {
  const checks =
    (schema._zod.def as { checks?: { _zod: { def: { check: string; maximum?: number } } }[] }).checks ?? [];
  return checks.find((check) => check._zod.def.check === "max_length")?._zod.def.maximum;
}

function describeField(key: string, section: string, schema: z.ZodType, defaultValue: unknown): SettingField {
  let inner: z.ZodType = schema;
  let nullable = false;
  while (inner instanceof z.ZodDefault || inner instanceof z.ZodNullable) {
    if (inner instanceof z.ZodNullable) nullable = true;
    inner = inner.unwrap() as z.ZodType;
  }
  const base = {
    key,
    label: SETTING_LABELS[key] ?? key,
    section,
    sectionLabel: SECTION_LABELS[section] ?? section,
    nullable,
    default: defaultValue,
    help: SETTING_HELP[key] ?? "",
  };
  if (inner instanceof z.ZodNumber) {
    return { ...base, kind: "integer", min: inner.minValue ?? undefined, max: inner.maxValue ?? undefined };
  }
  if (inner instanceof z.ZodEnum) return { ...base, kind: "enum", values: inner.options.map(String) };
  if (inner instanceof z.ZodString) return { ...base, kind: "text", maxLength: inner.maxLength ?? undefined };
  if (inner instanceof z.ZodBoolean) return { ...base, kind: "boolean" };
  if (inner instanceof z.ZodArray) {
    const element = inner.element as z.ZodString;
    return {
      ...base,
      kind: "strings",
      maxItems: maxLengthCheck(inner),
      maxLength: element.maxLength ?? undefined,
    };
  }
  throw new Error(`setting ${key} has a kind the admin form does not know`);
}

/** Every key of the context policy, in schema order (grouped by section). */
export function describeSettingFields(): SettingField[] {
  const defaults = defaultSettings() as Record<string, unknown>;
  const fields: SettingField[] = [];
  for (const [section, sectionSchema] of Object.entries(settingsSchema.shape)) {
    if (sectionSchema instanceof z.ZodObject) {
      const sectionDefaults = defaults[section] as Record<string, unknown>;
      for (const [name, fieldSchema] of Object.entries(sectionSchema.shape)) {
        fields.push(
          describeField(`${section}.${name}`, section, fieldSchema as z.ZodType, sectionDefaults[name]),
        );
      }
    } else {
      fields.push(describeField(section, section, sectionSchema as z.ZodType, defaults[section]));
    }
  }
  return fields;
}
