"use client";
// A versioned document's history, newest first (the newest is the one in force): each earlier version can be
// compared key by key with it, and restored, which adds a new version (versions are never overwritten). The context
// policy and each persona keep versions; their pages give the list, the keys to compare and where to restore.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ActionButtons } from "@/components/ui/action-buttons";
import { apiFetch } from "@/components/ui/api-client";
import { CancelConfirm } from "@/components/ui/cancel-confirm";
import { ErrorMessage } from "@/components/ui/error-message";
import { canonicalJson } from "@/lib/payload-diff";

export interface VersionRow {
  version: number;
  changedByName: string | null;
  /** JSON text from the API. */
  createdAt: string;
  /** The versioned document: the policy's settings, the persona's fields. */
  document: Record<string, unknown>;
}

export interface ComparedKey {
  key: string;
  read: (document: Record<string, unknown>) => unknown;
}

/** What a version can be compared on, and how it is restored. */
export interface VersionActions {
  keys: readonly ComparedKey[];
  restorePath: (version: number) => string;
  onRestored: () => Promise<unknown> | undefined;
}

export function VersionHistory({
  queryKey,
  load,
  actions,
  testId,
}: {
  queryKey: readonly unknown[];
  load: () => Promise<VersionRow[]>;
  actions: VersionActions;
  /** The list is `${testId}s`, each row `${testId}-row`. */
  testId: string;
}) {
  const versions = useQuery({ queryKey, queryFn: load });
  const [current] = versions.data ?? [];
  return (
    <section
      className="rounded-xl border border-zinc-200 p-4 dark:border-zinc-800"
      data-testid={`${testId}s`}
    >
      <h2 className="font-medium">History</h2>
      {versions.data?.length === 0 && (
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
          No versions yet: the next save records one.
        </p>
      )}
      <ul className="mt-2 space-y-2 text-sm">
        {versions.data?.map((row) => (
          <VersionItem
            key={row.version}
            row={row}
            current={current}
            actions={actions}
            rowTestId={`${testId}-row`}
          />
        ))}
      </ul>
    </section>
  );
}

function VersionItem({
  row,
  current,
  actions: { keys, restorePath, onRestored },
  rowTestId,
}: {
  row: VersionRow;
  current: VersionRow;
  actions: VersionActions;
  rowTestId: string;
}) {
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const restore = useMutation({
    mutationFn: () => apiFetch(restorePath(row.version), { method: "POST" }),
    onSuccess: async () => {
      setConfirming(false);
      await onRestored();
    },
  });
  const inForce = current.version === row.version;
  return (
    <li data-testid={rowTestId} data-version={row.version}>
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
                testId: "version-compare",
              },
              { label: "Restore", onClick: () => setConfirming(true), testId: "version-restore" },
            ]}
          />
        )}
      </div>
      {open && <VersionDiff from={current} to={row} keys={keys} />}
      {confirming && (
        <CancelConfirm onCancel={() => setConfirming(false)} className="mt-2 flex items-center gap-2">
          <button
            type="button"
            className="button-primary"
            disabled={restore.isPending}
            onClick={() => restore.mutate()}
            data-testid="version-restore-confirm"
          >
            Restore version {row.version} as a new version
          </button>
        </CancelConfirm>
      )}
      <ErrorMessage message={restore.error?.message} testId="version-error" />
    </li>
  );
}

/** The keys whose values differ, the version in force's value beside the other's. */
function VersionDiff({ from, to, keys }: { from: VersionRow; to: VersionRow; keys: readonly ComparedKey[] }) {
  const changed = keys.filter(
    ({ read }) => canonicalJson(read(from.document)) !== canonicalJson(read(to.document)),
  );
  if (changed.length === 0) {
    return (
      <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400" data-testid="version-diff">
        Same as version {from.version}.
      </p>
    );
  }
  return (
    <table className="mt-1 w-full text-xs" data-testid="version-diff">
      <thead>
        <tr className="text-left text-zinc-600 dark:text-zinc-400">
          <th className="font-normal">Key</th>
          <th className="font-normal">In force (version {from.version})</th>
          <th className="font-normal">Version {to.version}</th>
        </tr>
      </thead>
      <tbody>
        {changed.map(({ key, read }) => (
          <tr key={key} data-testid="version-diff-row" data-key={key}>
            <td className="pr-2 font-mono">{key}</td>
            <td className="pr-2 font-mono break-all">{shown(read(from.document))}</td>
            <td className="font-mono break-all">{shown(read(to.document))}</td>
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
