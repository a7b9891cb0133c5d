"use client";
// Persona user blocks: mute (cannot trigger the persona) or block (also hidden from its context), for a time or
// for good. One row per persona × user: setting one again replaces it.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch } from "@/components/ui/api-client";
import { adminKeys, errorsFrom } from "./admin-api";
import { PersonaSelect, UserSelect, usePersonas, useUsers } from "./entity-selects";

interface BlockRow {
  id: string;
  personaId: string;
  userId: string;
  blockType: "mute" | "block";
  reason: string | null;
  expiresAt: string | null;
  personaName: string;
  userName: string;
  userEmail: string;
  active: boolean;
}

export function BlockManager() {
  const queryClient = useQueryClient();
  const blocks = useQuery({
    queryKey: adminKeys.blocks,
    queryFn: () => apiFetch<{ blocks: BlockRow[] }>("/api/admin/blocks"),
  });
  const personas = usePersonas();
  const users = useUsers();
  const [form, setForm] = useState({
    personaId: "",
    userId: "",
    blockType: "mute",
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
      <table className="w-full text-left text-sm">
        <thead className="text-xs text-zinc-500 dark:text-zinc-400">
          <tr>
            <th className="py-1">Persona</th>
            <th>User</th>
            <th>Type</th>
            <th>Expires</th>
            <th>Reason</th>
            <th>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {blocks.data?.blocks.map((block) => (
            <tr
              key={block.id}
              className={`border-t border-zinc-200 dark:border-zinc-800 ${block.active ? "" : "opacity-50"}`}
              data-testid="block-row"
            >
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
                <button
                  type="button"
                  className="button-ghost"
                  onClick={() => lift.mutate(block.id)}
                  data-testid="block-lift"
                >
                  Lift
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {blocks.data?.blocks.length === 0 && (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">No blocks.</p>
      )}
      <form
        className="grid gap-3 rounded-xl border border-zinc-200 p-4 sm:grid-cols-3 dark:border-zinc-800"
        onSubmit={(event) => {
          event.preventDefault();
          setBlock.mutate();
        }}
      >
        <PersonaSelect
          value={form.personaId}
          onChange={(value) => setForm({ ...form, personaId: value })}
          testId="block-persona"
        />
        <UserSelect
          value={form.userId}
          onChange={(value) => setForm({ ...form, userId: value })}
          testId="block-user"
        />
        <label className="text-sm">
          Type
          <select
            className="input"
            value={form.blockType}
            onChange={(event) => setForm({ ...form, blockType: event.target.value })}
            data-testid="block-type"
          >
            <option value="mute">mute</option>
            <option value="block">block</option>
          </select>
        </label>
        <label className="text-sm">
          Duration in minutes (empty: permanent)
          <input
            className="input"
            type="number"
            min={1}
            value={form.duration}
            onChange={(event) => setForm({ ...form, duration: event.target.value })}
            data-testid="block-duration"
          />
          {errors.fields.durationMinutes && (
            <span className="block text-xs text-red-700 dark:text-red-300">
              {errors.fields.durationMinutes}
            </span>
          )}
        </label>
        <label className="text-sm sm:col-span-2">
          Reason
          <input
            className="input"
            value={form.reason}
            onChange={(event) => setForm({ ...form, reason: event.target.value })}
            data-testid="block-reason"
          />
          {errors.fields.reason && (
            <span className="block text-xs text-red-700 dark:text-red-300">{errors.fields.reason}</span>
          )}
        </label>
        {(errors.form || lift.error) && (
          <p
            role="alert"
            className="text-sm text-red-700 sm:col-span-3 dark:text-red-300"
            data-testid="block-error"
          >
            {errors.form ?? lift.error?.message}
          </p>
        )}
        <div className="sm:col-span-3">
          <button
            type="submit"
            className="button-primary"
            disabled={setBlock.isPending}
            data-testid="block-save"
          >
            Set
          </button>
        </div>
      </form>
    </div>
  );
}
