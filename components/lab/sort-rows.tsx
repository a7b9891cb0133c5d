// The results table's columns (docs/lab.md): each one's cell and the value it sorts by. Rows keep their position
// (the dataset's order), which is how a row's payloads are fetched.
import Link from "next/link";
import type { ReactNode } from "react";
import { formatCount } from "@/components/ui/format";
import { formatUsd } from "@/lib/pricing";
import type { ExperimentRow } from "./api";

interface Column {
  key: string;
  label: string;
  value: (row: ExperimentRow, position: number) => number | string;
  cell: (row: ExperimentRow, position: number) => ReactNode;
}

const figure = (
  key: string,
  label: string,
  pick: (row: ExperimentRow) => number | null | undefined,
  show: (value: number) => string = formatCount,
): Column => ({
  key,
  label,
  value: (row) => pick(row) ?? Number.NEGATIVE_INFINITY,
  cell: (row) => {
    const value = pick(row);
    return value === null || value === undefined ? "–" : show(value);
  },
});

export const COLUMNS: Column[] = [
  {
    key: "position",
    label: "#",
    value: (_, position) => position,
    cell: (row, position) => (
      <Link href={`/chat/${row.conversationId}`} className="hover:underline" title={row.conversationId}>
        {position + 1}
      </Link>
    ),
  },
  figure("baselineTokens", "tokens today", (row) => row.baseline?.inputTokens),
  figure("candidateTokens", "tokens candidate", (row) => row.candidate?.inputTokens),
  figure("deltaTokens", "Δ tokens", (row) =>
    row.baseline && row.candidate ? row.candidate.inputTokens - row.baseline.inputTokens : null,
  ),
  figure("candidateCost", "cost candidate", (row) => row.candidate?.costUsd, formatUsd),
  figure("baselineReuse", "reuse today (bytes)", (row) => row.baseline?.prefixReuseBytes),
  figure("candidateReuse", "reuse candidate (bytes)", (row) => row.candidate?.prefixReuseBytes),
  figure("candidateDropped", "dropped candidate", (row) => row.candidate?.dropped),
  figure("added", "added", (row) => row.diff?.added),
  figure("removed", "removed", (row) => row.diff?.removed),
  figure("changed", "changed", (row) => row.diff?.changed),
  figure("moved", "moved", (row) => row.diff?.moved),
];

export interface SortState {
  column: string;
  descending: boolean;
}

export function sortRows(rows: readonly ExperimentRow[], sort: SortState) {
  const column = COLUMNS.find((candidate) => candidate.key === sort.column) ?? COLUMNS[0];
  const sign = sort.descending ? -1 : 1;
  return rows
    .map((row, position) => ({ row, position, value: column.value(row, position) }))
    .sort((a, b) => (a.value < b.value ? -sign : a.value > b.value ? sign : a.position - b.position));
}
