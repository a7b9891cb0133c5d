"use client";
// Memories: filter by user and persona, add one in a scope, edit its content, area and active flag, delete it.
// Active memories reach the payload as the CORE_MEMORIES item of the users and personas they belong to.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ChangeEvent, useState } from "react";
import { apiFetch } from "@/components/ui/api-client";
import { ErrorMessage } from "@/components/ui/error-message";
import { PendingButton, SelectField, TextAreaField, TextField } from "@/components/ui/form-controls";
import { FormFooter } from "@/components/ui/form-footer";
import { submitHandler } from "@/components/ui/submit-handler";
import { useFormFields } from "@/components/ui/use-form-fields";
import { adminKeys, errorsFrom, type MemoryList } from "./admin-api";
import { PersonaSelect, UserSelect, usePersonas, useUsers } from "./entity-selects";

const SCOPES = [
  ["user", "user"],
  ["persona", "persona"],
  ["user_persona", "user × persona"],
] as const;

type MemoryRow = MemoryList["memories"][number];

export function MemoryManager() {
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState({ userId: "", personaId: "" });
  const query = new URLSearchParams(Object.entries(filters).filter(([, value]) => value !== "")).toString();
  const memories = useQuery({
    queryKey: adminKeys.memories(query),
    queryFn: () => apiFetch<MemoryList>(`/api/admin/memories${query ? `?${query}` : ""}`),
  });
  const personas = usePersonas();
  const users = useUsers();
  const [form, setForm, bind] = useFormFields({
    scope: "user" as MemoryRow["scope"],
    userId: "",
    personaId: "",
    area: "fact",
    content: "",
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["admin", "memories"] });
  const add = useMutation({
    mutationFn: () =>
      apiFetch("/api/admin/memories", {
        body: {
          scope: form.scope,
          userId: form.scope === "persona" ? null : form.userId || users.data?.users[0]?.id,
          personaId: form.scope === "user" ? null : form.personaId || personas.data?.personas[0]?.id,
          area: form.area,
          content: form.content,
        },
      }),
    onSuccess: async () => {
      setForm({ ...form, content: "" });
      await refresh();
    },
  });
  const change = useMutation({
    mutationFn: ({ id, ...changes }: { id: string; content?: string; area?: string; active?: boolean }) =>
      apiFetch("/api/admin/memories", { method: "PUT", body: { id, ...changes } }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch(`/api/admin/memories?id=${id}`, { method: "DELETE" }),
    onSuccess: refresh,
  });
  const errors = errorsFrom(add.error, ["area", "content", "userId", "personaId"]);

  return (
    <div className="space-y-6" data-testid="memory-manager">
      <h1 className="text-xl font-semibold">Memories</h1>
      <div className="flex flex-wrap gap-2">
        <UserSelect
          value={filters.userId}
          onChange={(value) => setFilters({ ...filters, userId: value })}
          testId="memory-filter-user"
          anyLabel="Any"
        />
        <PersonaSelect
          value={filters.personaId}
          onChange={(value) => setFilters({ ...filters, personaId: value })}
          testId="memory-filter-persona"
          anyLabel="Any"
        />
      </div>
      <ErrorMessage message={(change.error ?? remove.error)?.message} testId="memory-row-error" />
      <ul className="space-y-2">
        {memories.data?.memories.map((memory) => (
          <MemoryItem
            key={`${memory.id}:${memory.content}:${memory.area}`}
            memory={memory}
            onSave={(changes) => change.mutate({ id: memory.id, ...changes })}
            onDelete={() => remove.mutate(memory.id)}
          />
        ))}
      </ul>
      {memories.data?.memories.length === 0 && (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">No memories match.</p>
      )}
      <form
        className="grid gap-3 rounded-xl border border-zinc-200 p-4 sm:grid-cols-4 dark:border-zinc-800"
        onSubmit={submitHandler(() => add.mutate())}
      >
        <h2 className="font-medium sm:col-span-4">Add a memory</h2>
        <SelectField label="Scope" {...bind("scope")} options={SCOPES} testId="memory-scope" />
        {form.scope !== "persona" && <UserSelect {...bind("userId")} testId="memory-user" />}
        {form.scope !== "user" && <PersonaSelect {...bind("personaId")} testId="memory-persona" />}
        <TextField label="Area" error={errors.fields.area} {...bind("area")} testId="memory-area" />
        <TextAreaField
          label="Content"
          error={errors.fields.content}
          className="sm:col-span-4"
          rows={2}
          {...bind("content")}
          testId="memory-content"
        />
        <FormFooter error={errors.form} errorTestId="memory-error" span="sm:col-span-4">
          {/* A memory is added for the chosen user and persona, or the first ones listed: Add waits for both lists. */}
          <PendingButton
            type="submit"
            pending={add.isPending}
            disabled={!users.data || !personas.data}
            testId="memory-add"
          >
            Add
          </PendingButton>
        </FormFooter>
      </form>
    </div>
  );
}

function MemoryItem({
  memory,
  onSave,
  onDelete,
}: {
  memory: MemoryRow;
  onSave: (changes: { content?: string; area?: string; active?: boolean }) => void;
  onDelete: () => void;
}) {
  const [content, setContent] = useState(memory.content);
  const [area, setArea] = useState(memory.area);
  const owner = [memory.userName, memory.personaName].filter(Boolean).join(" × ") || memory.scope;
  // Every row has the same controls: each one's name says whose memory it is, or a screen reader hears 30
  // "Content" boxes. An inactive row is told by its badge and dashed border, not by fading its text, which
  // would fall under WCAG AA's 4.5:1 (e2e/accessibility.spec.ts audits it).
  const whose = `the ${memory.area} memory of ${owner}`;
  /** The area box and the content box: each edits its own draft and is named for whose memory it is. */
  const draftControl = (name: "Area" | "Content", value: string, setValue: (value: string) => void) => ({
    value,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setValue(event.target.value),
    "aria-label": `${name} of ${whose}`,
    "data-testid": `memory-row-${name.toLowerCase()}`,
  });
  return (
    <li
      className={`space-y-1 rounded-lg border p-2 text-sm ${
        memory.active
          ? "border-zinc-200 dark:border-zinc-800"
          : "border-dashed border-zinc-400 bg-zinc-50 dark:border-zinc-600 dark:bg-zinc-900"
      }`}
      data-testid="memory-row"
      data-active={memory.active}
    >
      <div className="flex flex-wrap items-center gap-2 text-xs text-zinc-600 dark:text-zinc-300">
        <span>{memory.scope}</span>
        <span>{owner}</span>
        {!memory.active && (
          <span
            className="rounded bg-zinc-200 px-1 font-medium text-zinc-800 dark:bg-zinc-700 dark:text-zinc-100"
            data-testid="memory-row-inactive"
          >
            inactive
          </span>
        )}
        <input
          className="rounded border border-zinc-300 px-1 dark:border-zinc-700 dark:bg-zinc-900"
          {...draftControl("Area", area, setArea)}
        />
        <label className="flex items-center gap-1">
          <input
            type="checkbox"
            checked={memory.active}
            onChange={(event) => onSave({ active: event.target.checked })}
            aria-label={`Active: ${whose}`}
            data-testid="memory-row-active"
          />
          active
        </label>
      </div>
      <textarea className="input mt-0" rows={2} {...draftControl("Content", content, setContent)} />
      <div className="flex gap-2">
        <button
          type="button"
          className="button-ghost"
          disabled={content === memory.content && area === memory.area}
          onClick={() => onSave({ content, area })}
          data-testid="memory-row-save"
        >
          Save
        </button>
        <button
          type="button"
          className="button-ghost text-red-700 dark:text-red-300"
          onClick={onDelete}
          data-testid="memory-row-delete"
        >
          Delete
        </button>
      </div>
    </li>
  );
}
