"use client";
// The persona form's fields: identity, role prompt, models, tools, the context note and the other overrides as JSON.
import { Controller, type UseFormReturn } from "react-hook-form";
import { FormField } from "@/components/ui/form-field";
import type { ModelRow, PolicyResponse } from "./admin-api";
import { FallbackOrder } from "./fallback-order";
import { type Draft, noteFieldsOf, toggle } from "./persona-draft";
import { SettingInput } from "./setting-input";
import { readKey } from "./settings-override";

type Tool = { name: string; description: string };

/** What a persona's fields choose from: the models, the tools and the context policy (the note's fields). */
export interface PersonaChoices {
  models: ModelRow[];
  tools: Tool[];
  policy: PolicyResponse;
}

export function PersonaFields({
  form,
  choices: { models, tools, policy },
  mainModelId,
  onEdited,
}: {
  form: UseFormReturn<Draft>;
  choices: PersonaChoices;
  mainModelId: string;
  /** A control that does not fire the form's change event was edited. */
  onEdited: () => void;
}) {
  const { register, control } = form;
  const errors = form.formState.errors;
  /** A registered control's props: the id its label and the error summary point at, and its test id. */
  const registered = (
    name: "name" | "avatar" | "systemPrompt" | "modelId" | "otherOverrides",
    testId: string,
  ) => ({
    id: `persona-${name}`,
    ...register(name),
    "data-testid": testId,
  });
  return (
    <>
      <div className="grid gap-3 sm:grid-cols-[1fr_8rem]">
        <FormField id="persona-name" label="Name" error={errors.name?.message}>
          <input
            className="input"
            aria-invalid={errors.name ? true : undefined}
            {...registered("name", "persona-name")}
          />
        </FormField>
        <FormField id="persona-avatar" label="Avatar" error={errors.avatar?.message}>
          <input className="input" placeholder="emoji or URL" {...registered("avatar", "persona-avatar")} />
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
                onEdited();
                field.onChange(value);
              }}
              models={models}
              mainModelId={mainModelId}
              error={fieldState.error?.message}
            />
          </div>
        )}
      />
      <ToolChecklist form={form} tools={tools} />
      <ContextNoteFieldset form={form} policy={policy} onEdited={onEdited} />
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
    </>
  );
}

function ToolChecklist({ form, tools }: { form: UseFormReturn<Draft>; tools: Tool[] }) {
  return (
    <Controller
      name="toolNames"
      control={form.control}
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
  );
}

function ContextNoteFieldset({
  form,
  policy,
  onEdited,
}: {
  form: UseFormReturn<Draft>;
  policy: PolicyResponse;
  onEdited: () => void;
}) {
  return (
    <fieldset
      className="space-y-3 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800"
      data-testid="persona-note"
    >
      <legend className="px-1 text-sm font-medium">Context note</legend>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        Injected as <code>[System: note]</code> at a depth from the end of the history. The persona's note and
        the conversation's note stack (persona first); empty fields inherit the context policy.
      </p>
      {noteFieldsOf(policy).map((field) => (
        <Controller
          key={field.key}
          name={`note.${field.key}` as "note.contextNote"}
          control={form.control}
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
                onEdited();
                control.onChange(value);
              }}
              error={fieldState.error?.message}
            />
          )}
        />
      ))}
    </fieldset>
  );
}
