"use client";
// One persona: identity, role prompt, models, tools, its context note (text, depth, role, frequency) and any other
// §4 override. The preview shows the next payload of one of your conversations as this persona, saved vs edited.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { Controller, type Resolver, useForm, useWatch } from "react-hook-form";
import { z } from "zod";
import { apiFetch } from "@/components/ui/api-client";
import { ErrorMessage } from "@/components/ui/error-message";
import { PendingButton } from "@/components/ui/form-controls";
import { FormField } from "@/components/ui/form-field";
import { settingsOverrideSchema } from "@/lib/domain/settings";
import {
  adminKeys,
  errorsFrom,
  type ModelRow,
  type PersonaRow,
  type PolicyResponse,
  type PreviewResult,
} from "./admin-api";
import { ErrorSummary, type FieldProblem } from "./error-summary";
import { FallbackOrder } from "./fallback-order";
import { PayloadPreview } from "./payload-preview";
import { SettingInput } from "./setting-input";
import { readKey } from "./settings-override";

const NOTE_KEYS = ["contextNote.text", "contextNote.depth", "contextNote.role", "contextNote.frequency"];

export function PersonaEditor({ personaId }: { personaId: string }) {
  const persona = useQuery({
    queryKey: adminKeys.persona(personaId),
    queryFn: () => apiFetch<{ persona: PersonaRow }>(`/api/admin/personas/${personaId}`),
  });
  const models = useQuery({
    queryKey: adminKeys.models,
    queryFn: () => apiFetch<{ models: ModelRow[] }>("/api/admin/models"),
  });
  const policy = useQuery({
    queryKey: adminKeys.settings,
    queryFn: () => apiFetch<PolicyResponse>("/api/admin/settings"),
  });
  const catalog = useQuery({
    queryKey: adminKeys.personas,
    queryFn: () =>
      apiFetch<{ personas: PersonaRow[]; tools: Array<{ name: string; description: string }> }>(
        "/api/admin/personas",
      ),
  });
  const error = persona.error ?? models.error ?? policy.error ?? catalog.error;
  if (error)
    return (
      <p className="text-sm text-red-700 dark:text-red-300" data-testid="persona-load-error">
        {error.message}
      </p>
    );
  if (!persona.data || !models.data || !policy.data || !catalog.data)
    return <p className="text-sm text-zinc-600 dark:text-zinc-400">Loading…</p>;
  return (
    <PersonaForm
      key={persona.data.persona.id}
      persona={persona.data.persona}
      models={models.data.models}
      policy={policy.data}
      tools={catalog.data.tools}
    />
  );
}

/** The form's values: the persona's fields, its context note edited field by field, other overrides as JSON. */
const draftSchema = z.object({
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
type Draft = z.input<typeof draftSchema>;

/** Why the "other overrides" JSON cannot be sent, checked by the override schema the API uses, or null. */
function otherOverridesProblem(text: string): string | null {
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

function toDraft(persona: PersonaRow): Draft {
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
function toBody(draft: Draft): Record<string, unknown> | null {
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

const FIELD_LABELS: Record<string, string> = {
  name: "Name",
  avatar: "Avatar",
  systemPrompt: "System prompt",
  modelId: "Model",
  fallbackModelIds: "Fallback models",
  otherOverrides: "Other overrides",
};

function toggle(list: string[], value: string, on: boolean): string[] {
  return on ? [...list.filter((entry) => entry !== value), value] : list.filter((entry) => entry !== value);
}

function PersonaForm({
  persona,
  models,
  policy,
  tools,
}: {
  persona: PersonaRow;
  models: ModelRow[];
  policy: PolicyResponse;
  tools: Array<{ name: string; description: string }>;
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const form = useForm<Draft>({
    defaultValues: toDraft(persona),
    resolver: zodResolver(draftSchema) as unknown as Resolver<Draft>,
    shouldFocusError: false,
  });
  const { register, control } = form;
  /** A registered control's props: the id its label and the error summary point at, and its test id. */
  const registered = (
    name: "name" | "avatar" | "systemPrompt" | "modelId" | "otherOverrides",
    testId: string,
  ) => ({
    id: `persona-${name}`,
    ...register(name),
    "data-testid": testId,
  });
  const draft = useWatch({ control }) as Draft;
  const [saved, setSaved] = useState(false);
  const [refusals, setRefusals] = useState(0);
  const noteFields = policy.fields.filter((field) => NOTE_KEYS.includes(field.key));
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      apiFetch<{ persona: PersonaRow }>(`/api/admin/personas/${persona.id}`, { method: "PUT", body }),
    onSuccess: async () => {
      setSaved(true);
      await queryClient.invalidateQueries({ queryKey: adminKeys.personas });
    },
    onError: (error) => {
      // A value only the API could judge: mark its field as the form marks its own.
      const server = errorsFrom(error, [...Object.keys(FIELD_LABELS), ...NOTE_KEYS]);
      for (const [key, message] of Object.entries(server.fields)) {
        const name = (NOTE_KEYS.includes(key) ? `note.${key}` : key) as Parameters<typeof form.setError>[0];
        form.setError(name, { type: "server", message });
      }
      const other = overrideError(
        errorsFrom(
          error,
          policy.fields.map((field) => field.key),
        ).fields,
      );
      if (other) form.setError("otherOverrides", { type: "server", message: other });
      setRefusals((count) => count + 1);
    },
  });
  const remove = useMutation({
    mutationFn: () => apiFetch<void>(`/api/admin/personas/${persona.id}`, { method: "DELETE" }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: adminKeys.personas });
      router.push("/admin/personas");
    },
  });
  const formError = errorsFrom(save.error, [
    ...Object.keys(FIELD_LABELS),
    ...policy.fields.map((field) => field.key),
  ]).form;

  const errors = form.formState.errors;
  const problems: FieldProblem[] = [
    ...["name", "avatar", "systemPrompt", "modelId", "fallbackModelIds"].flatMap((key) => {
      const message = (errors as Record<string, { message?: string } | undefined>)[key]?.message;
      return message ? [{ controlId: `persona-${key}`, label: FIELD_LABELS[key], message }] : [];
    }),
    ...noteFields.flatMap((field) => {
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
  const body = toBody(draft);

  async function runPreview(conversationId: string, text: string) {
    if (!body) throw new Error(otherOverridesProblem(draft.otherOverrides) ?? "The form has errors.");
    const result = await apiFetch<{ saved: PreviewResult; draft: PreviewResult }>(
      `/api/admin/personas/${persona.id}/preview`,
      { body: { conversationId, text, draft: body } },
    );
    return { saved: result.saved, edited: result.draft };
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    save.reset();
    setSaved(false);
    void onSave(event);
  };
  const onSave = form.handleSubmit(
    (values) => {
      const built = toBody(values);
      if (built) save.mutate(built);
    },
    () => setRefusals((count) => count + 1),
  );

  return (
    <div className="space-y-6" data-testid="persona-editor">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">
          Persona: <span data-testid="persona-title">{persona.name}</span>
        </h1>
        <div className="flex gap-2">
          <button
            type="button"
            className="button-ghost text-red-700 dark:text-red-300"
            onClick={() => remove.mutate()}
            disabled={remove.isPending}
            data-testid="persona-delete"
          >
            Delete
          </button>
          <PendingButton
            type="submit"
            form="persona-form"
            pending={save.isPending}
            pendingLabel="Saving…"
            testId="persona-save"
          >
            Save
          </PendingButton>
        </div>
      </header>
      <ErrorSummary problems={problems} focusSignal={refusals} testId="persona-error-summary" />
      {saved && !save.error && (
        <p className="text-sm text-green-700 dark:text-green-400" data-testid="persona-saved">
          Saved. The next turn of every conversation with {draft.name} uses it; stored messages are unchanged.
        </p>
      )}
      <ErrorMessage message={formError ?? remove.error?.message} testId="persona-error" />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        {/* The form holds the fields only: the preview beside it is a form of its own, and forms do not nest. */}
        <form
          id="persona-form"
          className="space-y-4"
          noValidate
          onChange={() => setSaved(false)}
          onSubmit={submit}
        >
          <div className="grid gap-3 sm:grid-cols-[1fr_8rem]">
            <FormField id="persona-name" label="Name" error={errors.name?.message}>
              <input
                className="input"
                aria-invalid={errors.name ? true : undefined}
                {...registered("name", "persona-name")}
              />
            </FormField>
            <FormField id="persona-avatar" label="Avatar" error={errors.avatar?.message}>
              <input
                className="input"
                placeholder="emoji or URL"
                {...registered("avatar", "persona-avatar")}
              />
            </FormField>
          </div>
          <FormField
            id="persona-systemPrompt"
            label="System prompt (the role prompt)"
            error={errors.systemPrompt?.message}
          >
            <textarea className="input" rows={5} {...registered("systemPrompt", "persona-system-prompt")} />
          </FormField>
          <FormField id="persona-modelId" label="Model" error={errors.modelId?.message}>
            <select className="input" {...registered("modelId", "persona-model")}>
              {models.map((model) => (
                <option key={model.id} value={model.id}>
                  {model.id} — {model.label}
                  {model.enabled ? "" : " (disabled)"}
                </option>
              ))}
            </select>
          </FormField>
          <Controller
            name="fallbackModelIds"
            control={control}
            render={({ field, fieldState }) => (
              <div id="persona-fallbackModelIds" tabIndex={-1}>
                <FallbackOrder
                  value={field.value ?? []}
                  onChange={(value) => {
                    setSaved(false);
                    field.onChange(value);
                  }}
                  models={models}
                  mainModelId={draft.modelId}
                  error={fieldState.error?.message}
                />
              </div>
            )}
          />
          <Controller
            name="toolNames"
            control={control}
            render={({ field }) => (
              <fieldset className="text-sm">
                <legend className="font-medium">Tools</legend>
                <div className="mt-1 space-y-1">
                  {tools.map((tool) => (
                    <label key={tool.name} className="flex items-start gap-2">
                      <input
                        type="checkbox"
                        className="mt-1"
                        checked={(field.value ?? []).includes(tool.name)}
                        onChange={(event) =>
                          field.onChange(toggle(field.value ?? [], tool.name, event.target.checked))
                        }
                        data-testid={`persona-tool-${tool.name}`}
                      />
                      <span>
                        <span className="font-mono text-xs">{tool.name}</span>{" "}
                        <span className="text-xs text-zinc-600 dark:text-zinc-400">{tool.description}</span>
                      </span>
                    </label>
                  ))}
                </div>
              </fieldset>
            )}
          />
          <fieldset
            className="space-y-3 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800"
            data-testid="persona-note"
          >
            <legend className="px-1 text-sm font-medium">Context note</legend>
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              Injected as <code>[System: note]</code> at a depth from the end of the history. The persona's
              note and the conversation's note stack (persona first); empty fields inherit the context policy.
            </p>
            {noteFields.map((field) => (
              <Controller
                key={field.key}
                name={`note.${field.key}` as "note.contextNote"}
                control={control}
                render={({ field: control, fieldState }) => (
                  <SettingInput
                    field={field}
                    inheritable
                    // Note texts stack rather than inherit: only depth, role and frequency fall back to the policy.
                    inheritedValue={
                      field.key === "contextNote.text"
                        ? undefined
                        : readKey(policy.settings as unknown as Record<string, unknown>, field.key)
                    }
                    value={control.value}
                    onChange={(value) => {
                      setSaved(false);
                      control.onChange(value);
                    }}
                    error={fieldState.error?.message}
                  />
                )}
              />
            ))}
          </fieldset>
          <FormField
            id="persona-otherOverrides"
            label="Other overrides (JSON: any context policy key, e.g. stop strings, speaker pattern, thinking)"
            error={errors.otherOverrides?.message}
          >
            <textarea
              className="input font-mono text-xs"
              rows={6}
              placeholder={
                '{\n  "stop": { "strings": ["\\nUser:"], "speakerPattern": true },\n  "thinking": { "enabled": true }\n}'
              }
              {...registered("otherOverrides", "persona-other-overrides")}
            />
          </FormField>
        </form>
        <div className="self-start lg:sticky lg:top-0">
          <PayloadPreview
            runPreview={runPreview}
            disabledReason={body ? null : otherOverridesProblem(draft.otherOverrides)}
          />
        </div>
      </div>
    </div>
  );
}

/** A refusal about an override key other than the note's belongs under the JSON box. */
function overrideError(fields: Record<string, string>): string | undefined {
  const entry = Object.entries(fields).find(([key]) => !NOTE_KEYS.includes(key));
  return entry ? `${entry[0]}: ${entry[1]}` : undefined;
}
