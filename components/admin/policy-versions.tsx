"use client";
// The policy's versions, newest first: each can be compared key by key with the version in force, and restored
// (as a new version: versions are never overwritten). A restored version must pass today's rules.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ActionButtons } from "@/components/ui/action-buttons";
import { apiFetch } from "@/components/ui/api-client";
import { CancelConfirm } from "@/components/ui/cancel-confirm";
import { ErrorMessage } from "@/components/ui/error-message";
import type { ApiOutput } from "@/lib/api/responses";
import { canonicalJson } from "@/lib/payload-diff";
import type { SettingField } from "@/lib/settings-fields";
import { adminKeys, type SettingsVersions } from "./admin-api";
import { readKey } from "./settings-override";

type Version = SettingsVersions["versions"][number];

export function PolicyVersions({ fields, inForce }: { fields: readonly SettingField[]; inForce: number }) {
  const versions = useQuery({
    queryKey: adminKeys.settingsVersions,
    queryFn: () => apiFetch<SettingsVersions>("/api/admin/settings/versions"),
  });
  const current = versions.data?.versions.find((row) => row.version === inForce);
  return (
    <section
      className="rounded-xl border border-zinc-200 p-4 dark:border-zinc-800"
      data-testid="policy-versions"
    >
      <h2 className="font-medium">History</h2>
      <ul className="mt-2 space-y-2 text-sm">
        {versions.data?.versions.map((row) => (
          <VersionRow key={row.version} row={row} current={current} fields={fields} />
        ))}
      </ul>
    </section>
  );
}

function VersionRow({
  row,
  current,
  fields,
}: {
  row: Version;
  current: Version | undefined;
  fields: readonly SettingField[];
}) {
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const queryClient = useQueryClient();
  const restore = useMutation({
    mutationFn: () =>
      apiFetch<ApiOutput<"POST /api/admin/settings/versions/:version/restore">>(
        `/api/admin/settings/versions/${row.version}/restore`,
        { method: "POST" },
      ),
    onSuccess: async () => {
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: ["admin", "settings"] });
    },
  });
  const inForce = current?.version === row.version;
  return (
    <li data-testid="policy-version-row" data-version={row.version}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="min-w-0 flex-1">
          Version {row.version} · {row.changedByName ?? "seed"} · {new Date(row.createdAt).toLocaleString()}
          {inForce && <span className="ml-1 font-medium">(in force)</span>}
        </span>
        {!inForce && (
          <ActionButtons
            className="button-ghost-sm"
            actions={[
              {
                label: open ? "Hide changes" : "Compare",
                onClick: () => setOpen((was) => !was),
                expanded: open,
                testId: "policy-version-compare",
              },
              { label: "Restore", onClick: () => setConfirming(true), testId: "policy-version-restore" },
            ]}
          />
        )}
      </div>
      {open && current && <VersionDiff from={current} to={row} fields={fields} />}
      {confirming && (
        <CancelConfirm onCancel={() => setConfirming(false)} className="mt-2 flex items-center gap-2">
          <button
            type="button"
            className="button-primary"
            disabled={restore.isPending}
            onClick={() => restore.mutate()}
            data-testid="policy-version-restore-confirm"
          >
            Restore version {row.version} as a new version
          </button>
        </CancelConfirm>
      )}
      <ErrorMessage message={restore.error?.message} testId="policy-version-error" />
    </li>
  );
}

/** The keys whose values differ, the version in force's value beside the other's. */
function VersionDiff({ from, to, fields }: { from: Version; to: Version; fields: readonly SettingField[] }) {
  const changed = fields.filter(
    (field) =>
      canonicalJson(readKey(from.settings, field.key)) !== canonicalJson(readKey(to.settings, field.key)),
  );
  if (changed.length === 0) {
    return (
      <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400" data-testid="policy-version-diff">
        Same as version {from.version}.
      </p>
    );
  }
  return (
    <table className="mt-1 w-full text-xs" data-testid="policy-version-diff">
      <thead>
        <tr className="text-left text-zinc-600 dark:text-zinc-400">
          <th className="font-normal">Key</th>
          <th className="font-normal">In force (version {from.version})</th>
          <th className="font-normal">Version {to.version}</th>
        </tr>
      </thead>
      <tbody>
        {changed.map((field) => (
          <tr key={field.key} data-testid="policy-version-diff-row" data-key={field.key}>
            <td className="pr-2 font-mono">{field.key}</td>
            <td className="pr-2 font-mono break-all">{shown(readKey(from.settings, field.key))}</td>
            <td className="font-mono break-all">{shown(readKey(to.settings, field.key))}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function shown(value: unknown): string {
  return value === null || value === undefined
    ? "—"
    : typeof value === "string"
      ? value
      : JSON.stringify(value);
}
