"use client";
// The global context policy (SPEC §4): every key with its default, range and help, grouped by section. Saving adds
// a new version (versions are never overwritten); the preview shows what the unsaved edits do to a real payload.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { SettingField } from "@/app/api/admin/settings/setting-fields";
import type { ResolvedSettings } from "@/lib/context/settings";
import { adminFetch, adminKeys, errorsFrom, type PolicyResponse, type PreviewResult } from "./admin-api";
import { PayloadPreview } from "./payload-preview";
import { SettingInput } from "./setting-input";
import { overrideFromDiff, readKey, writeKey } from "./settings-override";

export function ContextPolicyEditor() {
  const [savedVersion, setSavedVersion] = useState<number | null>(null);
  const policy = useQuery({
    queryKey: adminKeys.settings,
    queryFn: () => adminFetch<PolicyResponse>("/api/admin/settings"),
  });
  if (policy.error) return <p className="text-sm text-red-600">{policy.error.message}</p>;
  if (!policy.data) return <p className="text-sm text-zinc-500">Loading…</p>;
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

function PolicyForm({
  policy,
  savedVersion,
  onSaved,
}: {
  policy: PolicyResponse;
  savedVersion: number | null;
  onSaved: (version: number | null) => void;
}) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Record<string, unknown>>(
    () => structuredClone(policy.settings) as unknown as Record<string, unknown>,
  );
  const save = useMutation({
    mutationFn: () =>
      adminFetch<{ version: number }>("/api/admin/settings", {
        method: "PUT",
        body: { settings: draft, baseVersion: policy.version },
      }),
    onSuccess: async ({ version }) => {
      onSaved(version);
      await queryClient.invalidateQueries({ queryKey: ["admin", "settings"] });
    },
  });
  const errors = errorsFrom(
    save.error,
    policy.fields.map((field) => field.key),
  );
  const saved = policy.settings as unknown as Record<string, unknown>;
  const override = overrideFromDiff(saved, draft);
  const changedKeys = policy.fields.filter(
    (field) => JSON.stringify(readKey(saved, field.key)) !== JSON.stringify(readKey(draft, field.key)),
  );

  async function runPreview(conversationId: string, text: string) {
    const url = `/api/conversations/${conversationId}/preview`;
    const [savedPreview, editedPreview] = await Promise.all([
      adminFetch<{ preview: PreviewResult }>(url, { body: { text } }),
      adminFetch<{ preview: PreviewResult }>(url, { body: { text, settings: override } }),
    ]);
    return { saved: savedPreview.preview, edited: editedPreview.preview };
  }

  const sections = groupBySection(policy.fields);
  return (
    <div className="space-y-6" data-testid="context-policy">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h1 className="text-xl font-semibold">Context policy</h1>
          <p className="text-sm text-zinc-500">
            Global defaults for every conversation; a persona's or a conversation's override wins per key. In
            force: <span data-testid="policy-version">version {policy.version}</span>.
          </p>
        </div>
        <div className="flex items-center gap-2">
          <button
            type="button"
            className="button-ghost"
            onClick={() => setDraft(structuredClone(policy.defaults) as unknown as Record<string, unknown>)}
            data-testid="policy-defaults"
          >
            Reset to defaults
          </button>
          <button
            type="button"
            className="button-ghost"
            onClick={() => setDraft(structuredClone(saved))}
            disabled={changedKeys.length === 0}
            data-testid="policy-discard"
          >
            Discard edits
          </button>
          <button
            type="button"
            className="button-primary"
            onClick={() => save.mutate()}
            disabled={save.isPending || changedKeys.length === 0}
            data-testid="policy-save"
          >
            {save.isPending ? "Saving…" : `Save as version ${policy.version + 1}`}
          </button>
        </div>
      </header>
      {savedVersion === policy.version && !save.error && (
        <p className="text-sm text-green-700" data-testid="policy-saved">
          Saved as version {savedVersion}.
        </p>
      )}
      {errors.form && (
        <p role="alert" className="text-sm text-red-600" data-testid="policy-error">
          {errors.form}
        </p>
      )}
      <p className="text-xs text-zinc-500" data-testid="policy-changed">
        {changedKeys.length === 0
          ? "No unsaved edits."
          : `Unsaved edits: ${changedKeys.map((field) => field.key).join(", ")}`}
      </p>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <div className="space-y-6">
          {sections.map(([label, fields]) => (
            <fieldset
              key={label}
              className="space-y-3 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800"
            >
              <legend className="px-1 text-sm font-medium">{label}</legend>
              {fields.map((field) => (
                <SettingInput
                  key={field.key}
                  field={field}
                  value={readKey(draft, field.key)}
                  onChange={(value) => {
                    if (save.error) save.reset();
                    setDraft((current) => writeKey(current, field.key, value));
                  }}
                  error={errors.fields[field.key]}
                />
              ))}
            </fieldset>
          ))}
        </div>
        <div className="space-y-6 self-start lg:sticky lg:top-0">
          <PayloadPreview runPreview={runPreview} />
          <VersionHistory />
        </div>
      </div>
    </div>
  );
}

function groupBySection(fields: SettingField[]): Array<[string, SettingField[]]> {
  const groups = new Map<string, SettingField[]>();
  for (const field of fields)
    groups.set(field.sectionLabel, [...(groups.get(field.sectionLabel) ?? []), field]);
  return [...groups.entries()];
}

function VersionHistory() {
  const versions = useQuery({
    queryKey: adminKeys.settingsVersions,
    queryFn: () =>
      adminFetch<{
        versions: Array<{
          version: number;
          changedByName: string | null;
          createdAt: string;
          settings: ResolvedSettings;
        }>;
      }>("/api/admin/settings/versions"),
  });
  return (
    <section
      className="rounded-xl border border-zinc-200 p-4 dark:border-zinc-800"
      data-testid="policy-versions"
    >
      <h2 className="font-medium">History</h2>
      <ul className="mt-2 space-y-1 text-sm">
        {versions.data?.versions.map((row) => (
          <li key={row.version} data-testid="policy-version-row">
            Version {row.version} · {row.changedByName ?? "seed"} · {new Date(row.createdAt).toLocaleString()}
          </li>
        ))}
      </ul>
    </section>
  );
}
