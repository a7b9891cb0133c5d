"use client";
// The model registry: which providers the server has keys for (booleans only), every model with its capabilities,
// and one form to add a model or edit the selected one. Models in use or built in cannot be deleted.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ActionButtons } from "@/components/ui/action-buttons";
import { apiFetch } from "@/components/ui/api-client";
import { ErrorMessage } from "@/components/ui/error-message";
import { adminKeys, adminQueries, type ModelRow } from "./admin-api";
import { AdminTable, adminRowClass } from "./admin-table";
import { CAPABILITY_FLAGS, EMPTY_MODEL, ModelForm, type ModelFormValues } from "./model-form";
import { priceDraftOf } from "./model-prices";

export function ModelRegistry() {
  const models = useQuery(adminQueries.models);
  const [form, setForm] = useState<ModelFormValues>(EMPTY_MODEL);
  const [editing, setEditing] = useState<string | null>(null);

  return (
    <div className="space-y-6" data-testid="model-registry">
      <h1 className="text-xl font-semibold">Models</h1>
      <ConfiguredProviders configured={models.data?.configuredProviders ?? {}} />
      <ModelTable
        models={models.data?.models}
        onEdit={(model) => {
          setEditing(model.id);
          setForm({ ...model, prices: priceDraftOf(model.prices) });
        }}
      />
      <ModelForm
        form={form}
        editing={editing}
        setForm={setForm}
        onDone={() => {
          setEditing(null);
          setForm(EMPTY_MODEL);
        }}
      />
    </div>
  );
}

/** Which providers the server has a key for: booleans only, never the keys. */
function ConfiguredProviders({ configured: providers }: { configured: Record<string, boolean> }) {
  return (
    <p className="text-sm" data-testid="configured-providers">
      Providers configured on the server:{" "}
      {Object.entries(providers).map(([provider, configured]) => (
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
  );
}

/** Every model with its capabilities, and the buttons to edit, enable or disable, and delete one. */
function ModelTable({
  models,
  onEdit,
}: {
  models: ModelRow[] | undefined;
  onEdit: (model: ModelRow) => void;
}) {
  const queryClient = useQueryClient();
  const rowAction = useMutation({
    mutationFn: ({ model, action }: { model: ModelRow; action: "toggle" | "delete" }) =>
      action === "delete"
        ? apiFetch(`/api/admin/models/${encodeURIComponent(model.id)}`, { method: "DELETE" })
        : apiFetch(`/api/admin/models/${encodeURIComponent(model.id)}`, {
            method: "PUT",
            body: { enabled: !model.enabled },
          }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.models }),
  });
  return (
    <>
      <ErrorMessage message={rowAction.error?.message} testId="model-row-error" />
      <div className="overflow-x-auto">
        <AdminTable
          columns={["Id", "Label", "API", "Capabilities", "Window / max out", "Tokenizer"]}
          actions
          compact
        >
          {models?.map((model) => (
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
                      onClick: () => onEdit(model),
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
    </>
  );
}
