"use client";
// One persona: identity, role prompt, models, tools, its context note (text, depth, role, frequency) and any other
// §4 override. The preview shows the next payload of one of your conversations as this persona, saved vs edited.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import {
  adminFetch,
  adminKeys,
  errorsFrom,
  type ModelRow,
  type PersonaRow,
  type PolicyResponse,
  type PreviewResult,
} from "./admin-api";
import { PayloadPreview } from "./payload-preview";
import { SettingInput } from "./setting-input";
import { readKey, writeKey } from "./settings-override";

const NOTE_KEYS = ["contextNote.text", "contextNote.depth", "contextNote.role", "contextNote.frequency"];

export function PersonaEditor({ personaId }: { personaId: string }) {
  const persona = useQuery({
    queryKey: adminKeys.persona(personaId),
    queryFn: () => adminFetch<{ persona: PersonaRow }>(`/api/admin/personas/${personaId}`),
  });
  const models = useQuery({
    queryKey: adminKeys.models,
    queryFn: () => adminFetch<{ models: ModelRow[] }>("/api/admin/models"),
  });
  const policy = useQuery({
    queryKey: adminKeys.settings,
    queryFn: () => adminFetch<PolicyResponse>("/api/admin/settings"),
  });
  const catalog = useQuery({
    queryKey: adminKeys.personas,
    queryFn: () =>
      adminFetch<{ personas: PersonaRow[]; tools: Array<{ name: string; description: string }> }>(
        "/api/admin/personas",
      ),
  });
  const error = persona.error ?? models.error ?? policy.error ?? catalog.error;
  if (error)
    return (
      <p className="text-sm text-red-600" data-testid="persona-load-error">
        {error.message}
      </p>
    );
  if (!persona.data || !models.data || !policy.data || !catalog.data)
    return <p className="text-sm text-zinc-500">Loading…</p>;
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

interface Draft {
  name: string;
  avatar: string;
  systemPrompt: string;
  modelId: string;
  fallbackModelIds: string[];
  toolNames: string[];
  /** The context note part of the override, edited field by field. */
  note: Record<string, unknown>;
  /** Every other override key, edited as JSON. */
  otherOverrides: string;
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
    note: contextNote ? { contextNote } : {},
    otherOverrides: Object.keys(rest).length ? JSON.stringify(rest, null, 2) : "",
  };
}

/** The request body for the draft, or the reason it cannot be built. */
function toBody(draft: Draft): { body: Record<string, unknown> } | { problem: string } {
  let other: Record<string, unknown> = {};
  if (draft.otherOverrides.trim() !== "") {
    try {
      other = JSON.parse(draft.otherOverrides) as Record<string, unknown>;
    } catch {
      return { problem: "Other overrides is not valid JSON." };
    }
    if (typeof other !== "object" || other === null || Array.isArray(other))
      return { problem: "Other overrides must be a JSON object." };
  }
  const settingsOverride = { ...other, ...draft.note };
  return {
    body: {
      name: draft.name,
      avatar: draft.avatar.trim() === "" ? null : draft.avatar,
      systemPrompt: draft.systemPrompt,
      modelId: draft.modelId,
      fallbackModelIds: draft.fallbackModelIds,
      toolNames: draft.toolNames,
      settingsOverride,
    },
  };
}

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
  const [draft, setDraft] = useState<Draft>(() => toDraft(persona));
  const [saved, setSaved] = useState(false);
  const built = toBody(draft);
  const save = useMutation({
    mutationFn: () => {
      if ("problem" in built) throw new Error(built.problem);
      return adminFetch<{ persona: PersonaRow }>(`/api/admin/personas/${persona.id}`, {
        method: "PUT",
        body: built.body,
      });
    },
    onSuccess: async () => {
      setSaved(true);
      await queryClient.invalidateQueries({ queryKey: adminKeys.personas });
    },
  });
  const remove = useMutation({
    mutationFn: () => adminFetch<void>(`/api/admin/personas/${persona.id}`, { method: "DELETE" }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: adminKeys.personas });
      router.push("/admin/personas");
    },
  });
  const errors = errorsFrom(save.error, [
    "name",
    "avatar",
    "systemPrompt",
    "modelId",
    "fallbackModelIds",
    ...policy.fields.map((field) => field.key),
  ]);
  const noteFields = policy.fields.filter((field) => NOTE_KEYS.includes(field.key));
  const update = (changes: Partial<Draft>) => {
    setSaved(false);
    if (save.error) save.reset();
    setDraft((current) => ({ ...current, ...changes }));
  };

  async function runPreview(conversationId: string, text: string) {
    if ("problem" in built) throw new Error(built.problem);
    const result = await adminFetch<{ saved: PreviewResult; draft: PreviewResult }>(
      `/api/admin/personas/${persona.id}/preview`,
      {
        body: { conversationId, text, draft: built.body },
      },
    );
    return { saved: result.saved, edited: result.draft };
  }

  return (
    <div className="space-y-6" data-testid="persona-editor">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">
          Persona: <span data-testid="persona-title">{persona.name}</span>
        </h1>
        <div className="flex gap-2">
          <button
            type="button"
            className="button-ghost text-red-600"
            onClick={() => remove.mutate()}
            disabled={remove.isPending}
            data-testid="persona-delete"
          >
            Delete
          </button>
          <button
            type="button"
            className="button-primary"
            onClick={() => save.mutate()}
            disabled={save.isPending}
            data-testid="persona-save"
          >
            {save.isPending ? "Saving…" : "Save"}
          </button>
        </div>
      </header>
      {saved && !save.error && (
        <p className="text-sm text-green-700" data-testid="persona-saved">
          Saved. The next turn of every conversation with {draft.name} uses it; stored messages are unchanged.
        </p>
      )}
      {(errors.form || remove.error) && (
        <p role="alert" className="text-sm text-red-600" data-testid="persona-error">
          {errors.form ?? remove.error?.message}
        </p>
      )}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <div className="space-y-4">
          <div className="grid gap-3 sm:grid-cols-[1fr_8rem]">
            <Field label="Name" error={errors.fields.name}>
              <input
                className="input"
                value={draft.name}
                onChange={(event) => update({ name: event.target.value })}
                data-testid="persona-name"
              />
            </Field>
            <Field label="Avatar" error={errors.fields.avatar}>
              <input
                className="input"
                value={draft.avatar}
                onChange={(event) => update({ avatar: event.target.value })}
                placeholder="emoji or URL"
                data-testid="persona-avatar"
              />
            </Field>
          </div>
          <Field label="System prompt (the role prompt)" error={errors.fields.systemPrompt}>
            <textarea
              className="input"
              rows={5}
              value={draft.systemPrompt}
              onChange={(event) => update({ systemPrompt: event.target.value })}
              data-testid="persona-system-prompt"
            />
          </Field>
          <Field label="Model" error={errors.fields.modelId}>
            <select
              className="input"
              value={draft.modelId}
              onChange={(event) => update({ modelId: event.target.value })}
              data-testid="persona-model"
            >
              {models.map((model) => (
                <option key={model.id} value={model.id}>
                  {model.id} — {model.label}
                  {model.enabled ? "" : " (disabled)"}
                </option>
              ))}
            </select>
          </Field>
          <fieldset className="text-sm">
            <legend>Fallback models, in order</legend>
            <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
              {models
                .filter((model) => model.id !== draft.modelId)
                .map((model) => (
                  <label key={model.id} className="flex items-center gap-1 font-mono text-xs">
                    <input
                      type="checkbox"
                      checked={draft.fallbackModelIds.includes(model.id)}
                      onChange={(event) =>
                        update({
                          fallbackModelIds: toggle(draft.fallbackModelIds, model.id, event.target.checked),
                        })
                      }
                      data-testid={`persona-fallback-${model.id}`}
                    />
                    {model.id}
                  </label>
                ))}
            </div>
            {errors.fields.fallbackModelIds && (
              <p className="text-xs text-red-600">{errors.fields.fallbackModelIds}</p>
            )}
          </fieldset>
          <fieldset className="text-sm">
            <legend>Tools</legend>
            <div className="mt-1 space-y-1">
              {tools.map((tool) => (
                <label key={tool.name} className="flex items-start gap-2">
                  <input
                    type="checkbox"
                    className="mt-1"
                    checked={draft.toolNames.includes(tool.name)}
                    onChange={(event) =>
                      update({ toolNames: toggle(draft.toolNames, tool.name, event.target.checked) })
                    }
                    data-testid={`persona-tool-${tool.name}`}
                  />
                  <span>
                    <span className="font-mono text-xs">{tool.name}</span>{" "}
                    <span className="text-xs text-zinc-500">{tool.description}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset
            className="space-y-3 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800"
            data-testid="persona-note"
          >
            <legend className="px-1 text-sm font-medium">Context note</legend>
            <p className="text-xs text-zinc-500">
              Injected as <code>[System: note]</code> at a depth from the end of the history. The persona's
              note and the conversation's note stack (persona first); empty fields inherit the context policy.
            </p>
            {noteFields.map((field) => (
              <SettingInput
                key={field.key}
                field={field}
                inheritable
                // Note texts stack rather than inherit: only depth, role and frequency fall back to the policy.
                inheritedValue={
                  field.key === "contextNote.text"
                    ? undefined
                    : readKey(policy.settings as unknown as Record<string, unknown>, field.key)
                }
                value={readKey(draft.note, field.key)}
                onChange={(value) => update({ note: writeKey(draft.note, field.key, value) })}
                error={errors.fields[field.key]}
              />
            ))}
          </fieldset>
          <Field
            label="Other overrides (JSON: any §4 key, e.g. stop strings, speaker pattern, thinking)"
            error={"problem" in built ? built.problem : overrideError(errors.fields, policy)}
          >
            <textarea
              className="input font-mono text-xs"
              rows={6}
              value={draft.otherOverrides}
              placeholder={
                '{\n  "stop": { "strings": ["\\nUser:"], "speakerPattern": true },\n  "thinking": { "enabled": true }\n}'
              }
              onChange={(event) => update({ otherOverrides: event.target.value })}
              data-testid="persona-other-overrides"
            />
          </Field>
        </div>
        <div className="self-start lg:sticky lg:top-0">
          <PayloadPreview
            runPreview={runPreview}
            disabledReason={"problem" in built ? built.problem : null}
          />
        </div>
      </div>
    </div>
  );
}

/** A refusal about an override key other than the note's belongs under the JSON box. */
function overrideError(fields: Record<string, string>, policy: PolicyResponse): string | undefined {
  const keys = new Set(policy.fields.map((field) => field.key));
  const entry = Object.entries(fields).find(([key]) => !NOTE_KEYS.includes(key) && keys.has(key));
  return entry ? `${entry[0]}: ${entry[1]}` : undefined;
}

function Field({ label, error, children }: { label: string; error?: string; children: React.ReactNode }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control comes in as children
    <label className="block text-sm">
      {label}
      {children}
      {error && (
        <span role="alert" className="block text-xs text-red-600">
          {error}
        </span>
      )}
    </label>
  );
}
