"use client";
// Persona user blocks: mute (cannot trigger the persona) or block (also hidden from its context), for a time or
// for good. One row per persona × user: setting one again replaces it.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ActionButtons } from "@/components/ui/action-buttons";
import { apiFetch } from "@/components/ui/api-client";
import { PendingButton, SelectField, TextField } from "@/components/ui/form-controls";
import { FormFooter } from "@/components/ui/form-footer";
import { submitHandler } from "@/components/ui/submit-handler";
import { useFormFields } from "@/components/ui/use-form-fields";
import { BLOCK_TYPES } from "@/lib/domain/types";
import { adminKeys, type BlockList, errorsFrom } from "./admin-api";
import { AdminTable, adminRowClass } from "./admin-table";
import { PersonaSelect, UserSelect, usePersonas, useUsers } from "./entity-selects";

type BlockRow = BlockList["blocks"][number];

export function BlockManager() {
  const queryClient = useQueryClient();
  const blocks = useQuery({
    queryKey: adminKeys.blocks,
    queryFn: () => apiFetch<BlockList>("/api/admin/blocks"),
  });
  const personas = usePersonas();
  const users = useUsers();
  const [form, , bind] = useFormFields({
    personaId: "",
    userId: "",
    blockType: "mute" as BlockRow["blockType"],
    reason: "",
    duration: "",
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminKeys.blocks });
  const setBlock = useMutation({
    mutationFn: () =>
      apiFetch("/api/admin/blocks", {
        body: {
          personaId: form.personaId || personas.data?.personas[0]?.id,
          userId: form.userId || users.data?.users[0]?.id,
          blockType: form.blockType,
          reason: form.reason,
          durationMinutes: form.duration.trim() === "" ? null : Number(form.duration),
        },
      }),
    onSuccess: refresh,
  });
  const lift = useMutation({
    mutationFn: (id: string) => apiFetch(`/api/admin/blocks?id=${id}`, { method: "DELETE" }),
    onSuccess: refresh,
  });
  const errors = errorsFrom(setBlock.error, ["durationMinutes", "reason"]);

  return (
    <div className="space-y-6" data-testid="block-manager">
      <h1 className="text-xl font-semibold">Blocks</h1>
      <p className="text-sm text-zinc-500 dark:text-zinc-400">
        A <strong>mute</strong> stops a user from triggering the persona (the chat refuses with a message). A{" "}
        <strong>block</strong> does that and also replaces their messages with a <code>[System: …]</code>{" "}
        notice in the persona's context. Both are listed to the model on a PERSONA_USER_BLOCKS card.
      </p>
      <AdminTable columns={["Persona", "User", "Type", "Expires", "Reason"]} actions>
        {blocks.data?.blocks.map((block) => (
          <tr key={block.id} className={adminRowClass(!block.active)} data-testid="block-row">
            <td className="py-1.5">{block.personaName}</td>
            <td>
              {block.userName}{" "}
              <span className="text-xs text-zinc-500 dark:text-zinc-400">{block.userEmail}</span>
            </td>
            <td>{block.blockType}</td>
            <td>
              {block.expiresAt ? new Date(block.expiresAt).toLocaleString() : "never"}
              {block.active ? "" : " (expired)"}
            </td>
            <td>{block.reason ?? "—"}</td>
            <td>
              <ActionButtons
                actions={[{ label: "Lift", onClick: () => lift.mutate(block.id), testId: "block-lift" }]}
              />
            </td>
          </tr>
        ))}
      </AdminTable>
      {blocks.data?.blocks.length === 0 && (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">No blocks.</p>
      )}
      <form
        className="grid gap-3 rounded-xl border border-zinc-200 p-4 sm:grid-cols-3 dark:border-zinc-800"
        onSubmit={submitHandler(() => setBlock.mutate())}
      >
        <PersonaSelect {...bind("personaId")} testId="block-persona" />
        <UserSelect {...bind("userId")} testId="block-user" />
        <SelectField label="Type" {...bind("blockType")} options={BLOCK_TYPES} testId="block-type" />
        <TextField
          label="Duration in minutes (empty: permanent)"
          error={errors.fields.durationMinutes}
          {...bind("duration")}
          type="number"
          min={1}
          testId="block-duration"
        />
        <TextField
          label="Reason"
          error={errors.fields.reason}
          className="sm:col-span-2"
          {...bind("reason")}
          testId="block-reason"
        />
        <FormFooter error={errors.form ?? lift.error?.message} errorTestId="block-error" span="sm:col-span-3">
          <PendingButton type="submit" pending={setBlock.isPending} testId="block-save">
            Set
          </PendingButton>
        </FormFooter>
      </form>
    </div>
  );
}
