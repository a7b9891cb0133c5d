"use client";
// Every persona with its model and how many conversations use it, and a small form to add one.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { apiFetch } from "@/components/ui/api-client";
import { SelectField, TextField } from "@/components/ui/form-controls";
import type { ApiOutput } from "@/lib/api/responses";
import { adminKeys, adminQueries, errorsFrom } from "./admin-api";
import { AdminTable, adminRowClass } from "./admin-table";

export function PersonaList() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const personas = useQuery(adminQueries.personas);
  const models = useQuery(adminQueries.models);
  const [name, setName] = useState("");
  const [modelId, setModelId] = useState("");
  const create = useMutation({
    mutationFn: () =>
      apiFetch<ApiOutput<"POST /api/admin/personas">>("/api/admin/personas", {
        body: { name, modelId: modelId || models.data?.models[0]?.id || "" },
      }),
    onSuccess: async ({ persona }) => {
      await queryClient.invalidateQueries({ queryKey: adminKeys.personas });
      router.push(`/admin/personas/${persona.id}`);
    },
  });
  const errors = errorsFrom(create.error, ["name"]);

  return (
    <div className="space-y-6" data-testid="persona-list">
      <h1 className="text-xl font-semibold">Personas</h1>
      <AdminTable columns={["Name", "Gateway model id", "Model", "Fallbacks", "Conversations"]}>
        {personas.data?.personas.map((persona) => (
          <tr key={persona.id} className={adminRowClass()} data-testid="persona-row">
            <td className="py-1.5">
              <Link href={`/admin/personas/${persona.id}`} className="underline" data-testid="persona-link">
                {persona.avatar ? `${persona.avatar} ` : ""}
                {persona.name}
              </Link>
            </td>
            <td className="font-mono text-xs" data-testid="persona-slug">
              {persona.slug ?? "—"}
            </td>
            <td className="font-mono text-xs">{persona.modelId}</td>
            <td className="font-mono text-xs">{persona.fallbackModelIds.join(", ") || "—"}</td>
            <td>{persona.conversationCount ?? 0}</td>
          </tr>
        ))}
      </AdminTable>
      <form
        className="flex flex-wrap items-end gap-2 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <TextField
          label="New persona"
          error={errors.fields.name}
          value={name}
          onChange={setName}
          placeholder="Name"
          testId="new-persona-name"
        />
        <SelectField
          label="Model"
          value={modelId}
          options={models.data?.models.map((model) => model.id) ?? []}
          onChange={setModelId}
          testId="new-persona-model"
        />
        <button
          type="submit"
          className="button-primary"
          disabled={create.isPending}
          data-testid="new-persona-create"
        >
          Create
        </button>
        {errors.form && <p className="w-full text-sm text-red-700 dark:text-red-300">{errors.form}</p>}
      </form>
    </div>
  );
}
