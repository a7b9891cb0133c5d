"use client";
// What the request body holds beyond the items: elements no item explains (each its own card, with its address)
// and the provider adapter's warnings for the call. Both come from the wire reconciliation
// (docs/features.md#wire-reconciliation).
import type { UnclaimedElement } from "@/db/attempt-records";

export function WireNotes({ unclaimed, warnings }: { unclaimed: UnclaimedElement[]; warnings: string[] }) {
  if (unclaimed.length === 0 && warnings.length === 0) return null;
  return (
    <div className="mt-3 space-y-2">
      {warnings.length > 0 && (
        <ul
          className="space-y-1 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-[11px] text-amber-900 dark:border-amber-900 dark:bg-amber-950/30 dark:text-amber-100"
          aria-label="The provider adapter's warnings"
          data-testid="adapter-warnings"
        >
          {warnings.map((warning) => (
            <li key={warning} data-testid="adapter-warning">
              Adapter warning: {warning}
            </li>
          ))}
        </ul>
      )}
      {unclaimed.map((element) => (
        <UnclaimedCard key={element.pointer} {...element} />
      ))}
    </div>
  );
}

/** An element of the body that no item explains, under its address. */
function UnclaimedCard({ pointer, what }: UnclaimedElement) {
  return (
    <div
      className="rounded-lg border border-dashed border-rose-300 bg-white px-3 py-2 text-[11px] dark:border-rose-800 dark:bg-zinc-900"
      data-testid="unclaimed-element"
      data-pointer={pointer}
    >
      <span className="font-mono text-rose-800 dark:text-rose-200">{pointer}</span>
      <span className="ml-2 text-zinc-600 dark:text-zinc-300">in the body, from no item: {what}</span>
    </div>
  );
}
