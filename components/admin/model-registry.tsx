"use client";
// The model registry: which providers the server has keys for (booleans only), every model with its capabilities,
// and one form to add a model or edit the selected one. Models in use or built in cannot be deleted.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ActionButtons } from "@/components/ui/action-buttons";
import { apiFetch } from "@/components/ui/api-client";
import { ErrorMessage } from "@/components/ui/error-message";
import { NumberField, PendingButton, SelectField, TextField } from "@/components/ui/form-controls";
import { FormFooter } from "@/components/ui/form-footer";
import { submitHandler } from "@/components/ui/submit-handler";
import { API_KINDS, PROVIDER_NAMES, TOKENIZER_NAMES } from "@/lib/domain/types";
import { adminKeys, errorsFrom, type ModelRow } from "./admin-api";
import { AdminTable, adminRowClass } from "./admin-table";

const CAPABILITY_FLAGS = [
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
const FIELDS = ["id", ...CHANGEABLE_FIELDS.filter((key) => key !== "enabled")];

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

const EMPTY: ModelRow = {
  id: "",
  provider: "openai-compatible",
  providerModelName: "",
  label: "",
  apiKind: "chat",
  capabilities: {
    vision: false,
    video: false,
    audio: false,
    documents: false,
    tools: false,
    reasoning: false,
    systemInstruction: true,
    strictAlternation: false,
    maxStopSequences: 4,
  },
  contextWindow: 32_768,
  maxOutputTokens: 4_096,
  tokenizer: "estimate",
  enabled: true,
};

export function ModelRegistry() {
  const queryClient = useQueryClient();
  const models = useQuery({
    queryKey: adminKeys.models,
    queryFn: () =>
      apiFetch<{ models: ModelRow[]; configuredProviders: Record<string, boolean> }>("/api/admin/models"),
  });
  const [form, setForm] = useState<ModelRow>(EMPTY);
  const [editing, setEditing] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminKeys.models });
  const save = useMutation({
    mutationFn: () => {
      // Only the keys the routes accept: a listed row also carries read-only facts.
      const changes = Object.fromEntries(CHANGEABLE_FIELDS.map((key) => [key, form[key]]));
      return editing
        ? apiFetch(`/api/admin/models/${encodeURIComponent(editing)}`, { method: "PUT", body: changes })
        : apiFetch("/api/admin/models", { body: { id: form.id, ...changes } });
    },
    onSuccess: async () => {
      setForm(EMPTY);
      setEditing(null);
      await refresh();
    },
  });
  const rowAction = useMutation({
    mutationFn: ({ model, action }: { model: ModelRow; action: "toggle" | "delete" }) =>
      action === "delete"
        ? apiFetch(`/api/admin/models/${encodeURIComponent(model.id)}`, { method: "DELETE" })
        : apiFetch(`/api/admin/models/${encodeURIComponent(model.id)}`, {
            method: "PUT",
            body: { enabled: !model.enabled },
          }),
    onSuccess: refresh,
  });
  const errors = errorsFrom(save.error, FIELDS);
  const set = (changes: Partial<ModelRow>) => setForm((current) => ({ ...current, ...changes }));

  return (
    <div className="space-y-6" data-testid="model-registry">
      <h1 className="text-xl font-semibold">Models</h1>
      <p className="text-sm" data-testid="configured-providers">
        Providers configured on the server:{" "}
        {Object.entries(models.data?.configuredProviders ?? {}).map(([provider, configured]) => (
          <span
            key={provider}
            className={`mr-2 rounded px-1.5 py-0.5 text-xs ${configured ? "bg-green-100 text-green-800 dark:bg-green-900 dark:text-green-100" : "bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300"}`}
            data-testid={`provider-${provider}`}
            data-configured={configured ? "true" : "false"}
          >
            {provider}: {configured ? "yes" : "no key"}
          </span>
        ))}
      </p>
      <ErrorMessage message={rowAction.error?.message} testId="model-row-error" />
      <div className="overflow-x-auto">
        <AdminTable
          columns={["Id", "Label", "API", "Capabilities", "Window / max out", "Tokenizer"]}
          actions
          compact
        >
          {models.data?.models.map((model) => (
            <tr
              key={model.id}
              className={adminRowClass(!model.enabled)}
              data-testid="model-row"
              data-model-id={model.id}
            >
              <td className="py-1.5 font-mono">{model.id}</td>
              <td>{model.label}</td>
              <td>{model.apiKind}</td>
              <td>
                {CAPABILITY_FLAGS.filter((flag) => model.capabilities[flag]).join(", ")} · stop ≤{" "}
                {model.capabilities.maxStopSequences}
              </td>
              <td>
                {model.contextWindow.toLocaleString()} / {model.maxOutputTokens.toLocaleString()}
              </td>
              <td>{model.tokenizer}</td>
              <td className="whitespace-nowrap">
                <ActionButtons
                  actions={[
                    {
                      label: "Edit",
                      onClick: () => {
                        setEditing(model.id);
                        setForm(model);
                      },
                      testId: "model-edit",
                    },
                    {
                      label: model.enabled ? "Disable" : "Enable",
                      onClick: () => rowAction.mutate({ model, action: "toggle" }),
                      testId: "model-toggle",
                    },
                    {
                      label: "Delete",
                      onClick: () => rowAction.mutate({ model, action: "delete" }),
                      testId: "model-delete",
                      className: "button-ghost text-red-700 dark:text-red-300",
                    },
                  ]}
                />
              </td>
            </tr>
          ))}
        </AdminTable>
      </div>
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
          const change = (value: string | number) => set({ [key]: value } as Partial<ModelRow>);
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
            <button
              type="button"
              className="button-ghost"
              onClick={() => {
                setEditing(null);
                setForm(EMPTY);
              }}
            >
              Cancel
            </button>
          )}
        </FormFooter>
      </form>
    </div>
  );
}
