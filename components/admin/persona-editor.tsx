"use client";
// One persona: identity, role prompt, models, tools, its context note (text, depth, role, frequency) and any other
// §4 override. The preview shows the next payload of one of your conversations as this persona, saved vs edited.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { type Resolver, type UseFormReturn, useForm, useWatch } from "react-hook-form";
import { apiFetch } from "@/components/ui/api-client";
import { ErrorMessage } from "@/components/ui/error-message";
import { PendingButton } from "@/components/ui/form-controls";
import type { ApiOutput } from "@/lib/api/responses";
import {
  adminKeys,
  adminQueries,
  errorsFrom,
  type PersonaPreview,
  type PersonaRow,
  type PolicyResponse,
} from "./admin-api";
import { ErrorSummary } from "./error-summary";
import { PayloadPreview } from "./payload-preview";
import {
  type Draft,
  draftSchema,
  FIELD_LABELS,
  NOTE_KEYS,
  otherOverridesProblem,
  overrideError,
  personaProblems,
  toBody,
  toDraft,
} from "./persona-draft";
import { type PersonaChoices, PersonaFields } from "./persona-fields";
import { PersonaVersions } from "./persona-versions";

export function PersonaEditor({ personaId }: { personaId: string }) {
  const persona = useQuery({
    queryKey: adminKeys.persona(personaId),
    queryFn: () => apiFetch<ApiOutput<"GET /api/admin/personas/:id">>(`/api/admin/personas/${personaId}`),
  });
  const models = useQuery(adminQueries.models);
  const policy = useQuery(adminQueries.settings);
  const catalog = useQuery(adminQueries.personas);
  const [restores, setRestores] = useState(0);
  const error = persona.error ?? models.error ?? policy.error ?? catalog.error;
  if (error)
    return (
      <p className="text-sm text-red-700 dark:text-red-300" data-testid="persona-load-error">
        {error.message}
      </p>
    );
  if (!persona.data || !models.data || !policy.data || !catalog.data)
    return <p className="text-sm text-zinc-600 dark:text-zinc-400">Loading…</p>;
  const choices = { models: models.data.models, tools: catalog.data.tools, policy: policy.data };
  return (
    <div className="space-y-6">
      <PersonaForm
        // A restored version starts a fresh form with the restored fields.
        key={`${persona.data.persona.id}:${restores}`}
        persona={persona.data.persona}
        choices={choices}
      />
      <PersonaVersions personaId={personaId} onRestored={() => setRestores((count) => count + 1)} />
    </div>
  );
}

/** Saving and deleting the persona; a refused save marks its fields as the form marks its own. */
function usePersonaMutations(persona: PersonaRow, policy: PolicyResponse, form: UseFormReturn<Draft>) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(false);
  const [refusals, setRefusals] = useState(0);
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      apiFetch<ApiOutput<"PUT /api/admin/personas/:id">>(`/api/admin/personas/${persona.id}`, {
        method: "PUT",
        body,
      }),
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
  const refused = () => setRefusals((count) => count + 1);
  return { save, remove, saved, setSaved, refusals, refused, formError };
}

function PersonaForm({ persona, choices }: { persona: PersonaRow; choices: PersonaChoices }) {
  const form = useForm<Draft>({
    defaultValues: toDraft(persona),
    resolver: zodResolver(draftSchema) as unknown as Resolver<Draft>,
    shouldFocusError: false,
  });
  const draft = useWatch({ control: form.control }) as Draft;
  const { save, remove, saved, setSaved, refusals, refused, formError } = usePersonaMutations(
    persona,
    choices.policy,
    form,
  );
  const body = toBody(draft);

  async function runPreview(conversationId: string, text: string) {
    if (!body) throw new Error(otherOverridesProblem(draft.otherOverrides) ?? "The form has errors.");
    const result = await apiFetch<PersonaPreview>(`/api/admin/personas/${persona.id}/preview`, {
      body: { conversationId, text, draft: body },
    });
    return { saved: result.saved, edited: result.draft };
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    save.reset();
    setSaved(false);
    void onSave(event);
  };
  const onSave = form.handleSubmit((values) => {
    const built = toBody(values);
    if (built) save.mutate(built);
  }, refused);

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
      <ErrorSummary
        problems={personaProblems(form.formState.errors, choices.policy)}
        focusSignal={refusals}
        testId="persona-error-summary"
      />
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
          <PersonaFields
            form={form}
            choices={choices}
            mainModelId={draft.modelId}
            onEdited={() => setSaved(false)}
          />
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
