// The persona form's values and what it sends: the draft schema, a persona as a draft, a draft as the request
// body, and the problems the error summary lists.
import type { FieldErrors } from "react-hook-form";
import { z } from "zod";
import { settingsOverrideSchema } from "@/lib/domain/settings";
import type { PersonaRow, PolicyResponse } from "./admin-api";
import type { FieldProblem } from "./error-summary";

export const NOTE_KEYS = [
  "contextNote.text",
  "contextNote.depth",
  "contextNote.role",
  "contextNote.frequency",
];

/** The form's values: the persona's fields, its context note edited field by field, other overrides as JSON. */
export const draftSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { error: "Name must not be empty" })
    .max(100, { error: "Name must be at most 100 characters" }),
  avatar: z.string().max(2_000, { error: "Avatar must be at most 2000 characters" }),
  systemPrompt: z.string().max(20_000, { error: "System prompt must be at most 20000 characters" }),
  modelId: z.string().min(1, { error: "Choose a model" }),
  fallbackModelIds: z.array(z.string()).max(5, { error: "At most 5 fallback models" }),
  toolNames: z.array(z.string()),
  note: z.object({ contextNote: settingsOverrideSchema.shape.contextNote }),
  otherOverrides: z.string().superRefine((text, context) => {
    const problem = otherOverridesProblem(text);
    if (problem) context.addIssue({ code: "custom", message: problem });
  }),
});
export type Draft = z.input<typeof draftSchema>;

/** Why the "other overrides" JSON cannot be sent, checked by the override schema the API uses, or null. */
export function otherOverridesProblem(text: string): string | null {
  if (text.trim() === "") return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return "Other overrides is not valid JSON.";
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    return "Other overrides must be a JSON object.";
  const result = settingsOverrideSchema.safeParse(parsed);
  if (result.success) return null;
  const [issue] = result.error.issues;
  return issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message;
}

export function toDraft(persona: PersonaRow): Draft {
  const { contextNote, ...rest } = persona.settingsOverride as { contextNote?: Record<string, unknown> };
  return {
    name: persona.name,
    avatar: persona.avatar ?? "",
    systemPrompt: persona.systemPrompt,
    modelId: persona.modelId,
    fallbackModelIds: persona.fallbackModelIds,
    toolNames: persona.toolNames,
    note: { contextNote: contextNote ?? {} },
    otherOverrides: Object.keys(rest).length ? JSON.stringify(rest, null, 2) : "",
  };
}

/** The request body for a draft, or null while its JSON part cannot be read. */
export function toBody(draft: Draft): Record<string, unknown> | null {
  if (otherOverridesProblem(draft.otherOverrides)) return null;
  const other = draft.otherOverrides.trim() === "" ? {} : (JSON.parse(draft.otherOverrides) as object);
  const note = Object.fromEntries(
    Object.entries(draft.note.contextNote ?? {}).filter(([, value]) => value !== undefined),
  );
  return {
    name: draft.name.trim(),
    avatar: draft.avatar.trim() === "" ? null : draft.avatar,
    systemPrompt: draft.systemPrompt,
    modelId: draft.modelId,
    fallbackModelIds: draft.fallbackModelIds.filter((id) => id !== draft.modelId),
    toolNames: draft.toolNames,
    settingsOverride: { ...other, ...(Object.keys(note).length > 0 ? { contextNote: note } : {}) },
  };
}

export const FIELD_LABELS: Record<string, string> = {
  name: "Name",
  avatar: "Avatar",
  systemPrompt: "System prompt",
  modelId: "Model",
  fallbackModelIds: "Fallback models",
  otherOverrides: "Other overrides",
};

export function toggle(list: string[], value: string, on: boolean): string[] {
  return on ? [...list.filter((entry) => entry !== value), value] : list.filter((entry) => entry !== value);
}

/** A refusal about an override key other than the note's belongs under the JSON box. */
export function overrideError(fields: Record<string, string>): string | undefined {
  const entry = Object.entries(fields).find(([key]) => !NOTE_KEYS.includes(key));
  return entry ? `${entry[0]}: ${entry[1]}` : undefined;
}

/** The context policy's fields the persona's note sets: text, depth, role and frequency. */
export function noteFieldsOf(policy: PolicyResponse): PolicyResponse["fields"] {
  return policy.fields.filter((field) => NOTE_KEYS.includes(field.key));
}

/** Every refused field of the form, in the order the form shows them, for the error summary. */
export function personaProblems(errors: FieldErrors<Draft>, policy: PolicyResponse): FieldProblem[] {
  return [
    ...["name", "avatar", "systemPrompt", "modelId", "fallbackModelIds"].flatMap((key) => {
      const message = (errors as Record<string, { message?: string } | undefined>)[key]?.message;
      return message ? [{ controlId: `persona-${key}`, label: FIELD_LABELS[key], message }] : [];
    }),
    ...noteFieldsOf(policy).flatMap((field) => {
      const message = (
        errors.note?.contextNote as Record<string, { message?: string } | undefined> | undefined
      )?.[field.key.split(".")[1]]?.message;
      return message ? [{ controlId: `setting-${field.key}`, label: field.label, message }] : [];
    }),
    ...(errors.otherOverrides?.message
      ? [
          {
            controlId: "persona-otherOverrides",
            label: "Other overrides",
            message: errors.otherOverrides.message,
          },
        ]
      : []),
  ];
}
