// The admin pages' tables: a header of column names (and an unnamed one for row actions when asked), rows
// separated by a rule. A row that no longer applies (a disabled model, an expired block) is tinted.
import type { ReactNode } from "react";

export function AdminTable({
  columns,
  actions = false,
  compact = false,
  children,
}: {
  columns: string[];
  /** A last column of buttons, named for screen readers only. */
  actions?: boolean;
  /** Smaller text, for wide tables. */
  compact?: boolean;
  children: ReactNode;
}) {
  return (
    <table className={`w-full text-left ${compact ? "text-xs" : "text-sm"}`}>
      <thead className="text-xs text-zinc-500 dark:text-zinc-400">
        <tr>
          {columns.map((column, index) => (
            <th key={column} className={index === 0 ? "py-1" : undefined}>
              {column}
            </th>
          ))}
          {actions && (
            // Positioned, so the absolutely placed sr-only label stays inside the table's scroll box: placed
            // against the page it widened a phone's page to the table's width.
            <th className="relative">
              <span className="sr-only">Actions</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/**
 * The class of a table row: ruled above, on a tinted ground when `inactive`. Not faded: half opacity put its text
 * under WCAG AA's 4.5:1 (e2e/accessibility.spec.ts audits the pages with such rows).
 */
export function adminRowClass(inactive = false): string {
  return `border-t border-zinc-200 dark:border-zinc-800${inactive ? " bg-zinc-50 dark:bg-zinc-900" : ""}`;
}
