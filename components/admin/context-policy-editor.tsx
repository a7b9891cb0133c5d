"use client";
// The global context policy: every key with its default, range and help, grouped by section. Saving adds
// a new version (versions are never overwritten); the preview shows what the unsaved edits do to a real payload.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import {
  type Control,
  Controller,
  type Resolver,
  type UseFormReturn,
  useForm,
  useWatch,
} from "react-hook-form";
import { ActionButtons } from "@/components/ui/action-buttons";
import { apiFetch } from "@/components/ui/api-client";
import { ErrorMessage } from "@/components/ui/error-message";
import { PendingButton } from "@/components/ui/form-controls";
import type { ApiOutput } from "@/lib/api/responses";
import { settingsSchema } from "@/lib/domain/settings";
import { addSettingsConflictIssues } from "@/lib/domain/settings-rules";
import { canonicalJson } from "@/lib/payload-diff";
import type { SettingField } from "@/lib/settings-fields";
import { adminQueries, errorsFrom, type PolicyResponse } from "./admin-api";
import { ErrorSummary, type FieldProblem } from "./error-summary";
import { PayloadPreview } from "./payload-preview";
import { PolicyVersions } from "./policy-versions";
import { SettingInput } from "./setting-input";
import { overrideFromDiff, readKey } from "./settings-override";

export function ContextPolicyEditor() {
  const [savedVersion, setSavedVersion] = useState<number | null>(null);
  const policy = useQuery(adminQueries.settings);
  if (policy.error) return <p className="text-sm text-red-700 dark:text-red-300">{policy.error.message}</p>;
  if (!policy.data) return <p className="text-sm text-zinc-600 dark:text-zinc-400">Loading…</p>;
  // A new version remounts the form with the saved document; the "saved" notice lives here so it survives that.
  return (
    <PolicyForm
      key={policy.data.version}
      policy={policy.data}
      savedVersion={savedVersion}
      onSaved={setSavedVersion}
    />
  );
}

type SettingsDocument = Record<string, unknown>;

const checkedSettingsSchema = settingsSchema.superRefine(addSettingsConflictIssues);

function PolicyForm({
  policy,
  savedVersion,
  onSaved,
}: {
  policy: PolicyResponse;
  savedVersion: number | null;
  onSaved: (version: number | null) => void;
}) {
  const saved = policy.settings as unknown as SettingsDocument;
  // The form state is the settings document itself, validated as a whole by the schema the API enforces, so
  // every invalid field is marked at once, with the API's own words; settings that contradict each other are
  // marked by the same rule table the API applies.
  const form = useForm<SettingsDocument>({
    defaultValues: structuredClone(saved),
    resolver: zodResolver(checkedSettingsSchema) as unknown as Resolver<SettingsDocument>,
    shouldFocusError: false,
  });
  const draft = useWatch({ control: form.control }) as SettingsDocument;
  const { save, refusals, refused, formError } = usePolicySave(policy, form, onSaved);
  const errors = form.formState.errors;
  const problems: FieldProblem[] = policy.fields.flatMap((field) => {
    const message = (readKey(errors as SettingsDocument, field.key) as { message?: string } | undefined)
      ?.message;
    return message ? [{ controlId: `setting-${field.key}`, label: field.label, message }] : [];
  });
  const override = overrideFromDiff(saved, draft);
  const changedKeys = policy.fields.filter(
    (field) => canonicalJson(readKey(saved, field.key)) !== canonicalJson(readKey(draft, field.key)),
  );

  async function runPreview(conversationId: string, text: string) {
    const url = `/api/conversations/${conversationId}/preview`;
    const [savedPreview, editedPreview] = await Promise.all([
      apiFetch<ApiOutput<"POST /api/conversations/:id/preview">>(url, { body: { text } }),
      apiFetch<ApiOutput<"POST /api/conversations/:id/preview">>(url, {
        body: { text, settings: override },
      }),
    ]);
    return { saved: savedPreview.preview, edited: editedPreview.preview };
  }

  const onSave = form.handleSubmit((settings) => save.mutate(settings), refused);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    save.reset();
    void onSave(event);
  };
  return (
    <div className="space-y-6" data-testid="context-policy">
      <PolicyHeader
        policy={policy}
        onReset={(document) => form.reset(structuredClone(document))}
        changed={changedKeys.length > 0}
        saving={save.isPending}
      />
      <ErrorSummary problems={problems} focusSignal={refusals} testId="policy-error-summary" />
      {savedVersion === policy.version && !save.error && (
        <p className="text-sm text-green-700 dark:text-green-400" data-testid="policy-saved">
          Saved as version {savedVersion}.
        </p>
      )}
      <ErrorMessage message={formError} testId="policy-error" />
      <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="policy-changed">
        {changedKeys.length === 0
          ? "No unsaved edits."
          : `Unsaved edits: ${changedKeys.map((field) => `${field.label} (${field.key})`).join(", ")}`}
      </p>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        {/* The form holds the fields only: the preview beside it is a form of its own, and forms do not nest. */}
        <form id="policy-form" className="space-y-6" noValidate onSubmit={submit}>
          <PolicySections fields={policy.fields} control={form.control} />
        </form>
        <div className="space-y-6 self-start lg:sticky lg:top-0">
          <PayloadPreview runPreview={runPreview} />
          <PolicyVersions fields={policy.fields} />
        </div>
      </div>
    </div>
  );
}

/** Saving the policy as a new version; a value the API refuses is marked on its field. */
function usePolicySave(
  policy: PolicyResponse,
  form: UseFormReturn<SettingsDocument>,
  onSaved: (version: number | null) => void,
) {
  const queryClient = useQueryClient();
  const [refusals, setRefusals] = useState(0);
  const save = useMutation({
    mutationFn: (settings: SettingsDocument) =>
      apiFetch<ApiOutput<"PUT /api/admin/settings">>("/api/admin/settings", {
        method: "PUT",
        body: { settings, baseVersion: policy.version },
      }),
    onSuccess: async ({ version }) => {
      onSaved(version);
      await queryClient.invalidateQueries({ queryKey: ["admin", "settings"] });
    },
    onError: (error) => {
      // The API refused a value the form let through: mark that field as the form marks its own.
      const server = errorsFrom(
        error,
        policy.fields.map((field) => field.key),
      );
      for (const [key, message] of Object.entries(server.fields))
        form.setError(key, { type: "server", message });
      if (Object.keys(server.fields).length > 0) setRefusals((count) => count + 1);
    },
  });
  const formError = errorsFrom(
    save.error,
    policy.fields.map((field) => field.key),
  ).form;
  const refused = () => setRefusals((count) => count + 1);
  return { save, refusals, refused, formError };
}

/** The title, the version in force, and the buttons that reset, discard and save. */
function PolicyHeader({
  policy,
  onReset,
  changed,
  saving,
}: {
  policy: PolicyResponse;
  onReset: (document: SettingsDocument) => void;
  changed: boolean;
  saving: boolean;
}) {
  return (
    <header className="flex flex-wrap items-center justify-between gap-2">
      <div>
        <h1 className="text-xl font-semibold">Context policy</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Global defaults for every conversation; a persona's or a conversation's override wins per key. In
          force: <span data-testid="policy-version">version {policy.version}</span>.
        </p>
      </div>
      <div className="flex items-center gap-2">
        <ActionButtons
          actions={[
            {
              label: "Reset to defaults",
              onClick: () => onReset(policy.defaults as unknown as SettingsDocument),
              testId: "policy-defaults",
            },
            {
              label: "Discard edits",
              onClick: () => onReset(policy.settings as unknown as SettingsDocument),
              disabled: !changed,
              testId: "policy-discard",
            },
          ]}
        />
        <PendingButton
          type="submit"
          form="policy-form"
          pending={saving}
          pendingLabel="Saving…"
          disabled={!changed}
          testId="policy-save"
        >
          Save as version {policy.version + 1}
        </PendingButton>
      </div>
    </header>
  );
}

/** Every key of the policy, grouped by section. */
function PolicySections({
  fields: all,
  control: formControl,
}: {
  fields: SettingField[];
  control: Control<SettingsDocument>;
}) {
  return groupBySection(all).map(([label, fields]) => (
    <fieldset key={label} className="space-y-3 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800">
      <legend className="px-1 text-sm font-medium">{label}</legend>
      {fields.map((field) => (
        <Controller
          key={field.key}
          name={field.key}
          control={formControl}
          render={({ field: control, fieldState }) => (
            <SettingInput
              field={field}
              value={control.value}
              onChange={control.onChange}
              error={fieldState.error?.message}
            />
          )}
        />
      ))}
    </fieldset>
  ));
}

function groupBySection(fields: SettingField[]): Array<[string, SettingField[]]> {
  const groups = new Map<string, SettingField[]>();
  for (const field of fields)
    groups.set(field.sectionLabel, [...(groups.get(field.sectionLabel) ?? []), field]);
  return [...groups.entries()];
}
