"use client";
// The model registry's one form: add a model, or edit the selected one.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/ui/api-client";
import { NumberField, PendingButton, SelectField, TextField } from "@/components/ui/form-controls";
import { FormFooter } from "@/components/ui/form-footer";
import { submitHandler } from "@/components/ui/submit-handler";
import { COMPATIBLE_DEFAULT_CAPABILITIES } from "@/lib/domain/model-catalog";
import { API_KINDS, PROVIDER_NAMES, TOKENIZER_NAMES } from "@/lib/domain/types";
import { adminKeys, errorsFrom, type ModelRow } from "./admin-api";
import { ModelPriceFields, type PriceDraft, priceDraftOf, pricesOf } from "./model-prices";

/** The form: a row's fields without its times (read-only facts), its prices as drafted (model-prices.tsx). */
export type ModelFormValues = Omit<ModelRow, "prices" | "createdAt" | "updatedAt"> & { prices: PriceDraft };

export const CAPABILITY_FLAGS = [
  "vision",
  "video",
  "audio",
  "documents",
  "tools",
  "reasoning",
  "systemInstruction",
  "strictAlternation",
] as const;
/** What a save sends besides the id. */
const CHANGEABLE_FIELDS = [
  "provider",
  "providerModelName",
  "label",
  "apiKind",
  "capabilities",
  "contextWindow",
  "maxOutputTokens",
  "tokenizer",
  "enabled",
] as const;
/** The fields whose refusal shows under the field itself. */
const FIELDS = ["id", "prices", ...CHANGEABLE_FIELDS.filter((key) => key !== "enabled")];

/** The form's plain fields in their order: a choice when it has options, else a number or a text by the value. */
const FORM_FIELDS: readonly {
  key: Exclude<(typeof CHANGEABLE_FIELDS)[number], "capabilities" | "enabled">;
  label: string;
  testId: string;
  options?: readonly string[];
}[] = [
  { key: "provider", label: "Provider", testId: "model-provider", options: PROVIDER_NAMES },
  { key: "providerModelName", label: "Provider model name", testId: "model-provider-name" },
  { key: "label", label: "Label", testId: "model-label" },
  { key: "apiKind", label: "API kind", testId: "model-api-kind", options: API_KINDS },
  { key: "tokenizer", label: "Tokenizer", testId: "model-tokenizer", options: TOKENIZER_NAMES },
  { key: "contextWindow", label: "Context window", testId: "model-context-window" },
  { key: "maxOutputTokens", label: "Max output tokens", testId: "model-max-output" },
];

export const EMPTY_MODEL: ModelFormValues = {
  id: "",
  provider: "openai-compatible",
  providerModelName: "",
  label: "",
  apiKind: "chat",
  // A new model starts from what the app assumes of an unknown one, alternation aside: the admin says what it has.
  capabilities: { ...COMPATIBLE_DEFAULT_CAPABILITIES, strictAlternation: false },
  contextWindow: 32_768,
  maxOutputTokens: 4_096,
  tokenizer: "estimate",
  enabled: true,
  prices: priceDraftOf(null),
};

export function ModelForm({
  form,
  editing,
  setForm,
  onDone,
}: {
  form: ModelFormValues;
  /** The id of the model being edited, or null while adding one. */
  editing: string | null;
  setForm: (update: (current: ModelFormValues) => ModelFormValues) => void;
  /** Back to adding an empty model, after a save or on cancel. */
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: () => {
      // Only the keys the routes accept: a listed row also carries read-only facts.
      const changes = {
        ...Object.fromEntries(CHANGEABLE_FIELDS.map((key) => [key, form[key]])),
        prices: pricesOf(form.prices),
      };
      return editing
        ? apiFetch(`/api/admin/models/${encodeURIComponent(editing)}`, { method: "PUT", body: changes })
        : apiFetch("/api/admin/models", { body: { id: form.id, ...changes } });
    },
    onSuccess: async () => {
      onDone();
      await queryClient.invalidateQueries({ queryKey: adminKeys.models });
    },
  });
  const errors = errorsFrom(save.error, FIELDS);
  const set = (changes: Partial<ModelFormValues>) => setForm((current) => ({ ...current, ...changes }));
  return (
    <form
      className="grid grid-cols-1 gap-3 rounded-xl border border-zinc-200 p-4 sm:grid-cols-3 dark:border-zinc-800"
      onSubmit={submitHandler(() => save.mutate())}
      data-testid="model-form"
    >
      <h2 className="font-medium sm:col-span-3">{editing ? `Edit ${editing}` : "Add a model"}</h2>
      <TextField
        label="Id"
        error={errors.fields.id}
        inputClassName="input font-mono"
        value={form.id}
        disabled={Boolean(editing)}
        onChange={(id) => set({ id })}
        placeholder="openai-compatible:llama3"
        testId="model-id"
      />
      {FORM_FIELDS.map(({ key, label, testId, options }) => {
        const frame = { label, error: errors.fields[key], testId };
        const change = (value: string | number) => set({ [key]: value } as Partial<ModelFormValues>);
        const value = form[key];
        if (options) {
          return (
            <SelectField key={key} {...frame} value={String(value)} options={options} onChange={change} />
          );
        }
        return typeof value === "number" ? (
          <NumberField key={key} {...frame} value={value} onChange={change} />
        ) : (
          <TextField key={key} {...frame} value={value} onChange={change} />
        );
      })}
      <NumberField
        label="Max stop sequences"
        error={errors.fields.capabilities}
        value={form.capabilities.maxStopSequences}
        onChange={(maxStopSequences) => set({ capabilities: { ...form.capabilities, maxStopSequences } })}
        testId="model-max-stop"
      />
      <ModelPriceFields
        modelId={form.id}
        draft={form.prices}
        error={errors.fields.prices}
        onChange={(prices) => set({ prices })}
      />
      <fieldset className="flex flex-wrap gap-x-4 gap-y-1 text-sm sm:col-span-3">
        {CAPABILITY_FLAGS.map((flag) => (
          <label key={flag} className="flex items-center gap-1">
            <input
              type="checkbox"
              checked={form.capabilities[flag] ?? false}
              onChange={(event) =>
                set({ capabilities: { ...form.capabilities, [flag]: event.target.checked } })
              }
              data-testid={`model-capability-${flag}`}
            />
            {flag}
          </label>
        ))}
      </fieldset>
      <FormFooter
        error={errors.form}
        errorTestId="model-error"
        span="sm:col-span-3"
        actionsClassName="flex gap-2 sm:col-span-3"
      >
        <PendingButton type="submit" pending={save.isPending} testId="model-save">
          {editing ? "Save changes" : "Add model"}
        </PendingButton>
        {editing && (
          <button type="button" className="button-ghost" onClick={onDone}>
            Cancel
          </button>
        )}
      </FormFooter>
    </form>
  );
}
