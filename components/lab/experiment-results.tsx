"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
// An experiment's results (docs/lab.md): progress while it runs, the totals (tokens, cost, cache reuse, items
// dropped), a table sorted by any column (click its header), each row opening the two payloads' diff (and, live,
// the two replies side by side), and the rows exported as CSV or JSON.
import { ErrorMessage } from "@/components/ui/error-message";
import { formatCount } from "@/components/ui/format";
import { PageHeading } from "@/components/ui/page-heading";
import type { ExperimentTotals } from "@/lib/lab/experiment-figures";
import { formatUsd } from "@/lib/pricing";
import { type ExperimentRow, getExperiment } from "./api";
import { RowDiff } from "./row-diff";
import { COLUMNS, type SortState, sortRows } from "./sort-rows";

export function ExperimentResults({ experimentId }: { experimentId: string }) {
  const experiment = useQuery({
    queryKey: ["experiment", experimentId],
    queryFn: () => getExperiment(experimentId),
    refetchInterval: (query) => {
      const status = query.state.data?.experiment.status;
      return status === "done" || status === "failed" ? false : 1_000;
    },
  });
  const body = experiment.data?.experiment;
  return (
    <main id="main-content" className="mx-auto max-w-6xl space-y-5 p-6" data-testid="experiment-results">
      <PageHeading title="Experiment" />
      <ErrorMessage message={experiment.error?.message} testId="experiment-results-error" />
      {body && (
        <>
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <Link href={`/datasets/${body.datasetId}`} className="underline">
              The dataset
            </Link>
            <span data-testid="experiment-status" data-status={body.status}>
              {body.status} · {body.progress.done} of {body.progress.total} conversations
              {body.live ? " · live" : " · dry (nothing sent)"}
            </span>
            {(["csv", "json"] as const).map((format) => (
              <a
                key={format}
                href={`/api/experiments/${experimentId}?format=${format}`}
                download
                className="underline"
                data-testid={`export-${format}`}
              >
                Export {format.toUpperCase()}
              </a>
            ))}
          </div>
          <ErrorMessage message={body.error} testId="experiment-error" />
          <Totals totals={body.totals} />
          <ResultTable experimentId={experimentId} rows={body.results} />
        </>
      )}
    </main>
  );
}

function Totals({ totals }: { totals: ExperimentTotals }) {
  const cost = (usd: number | null) => (usd === null ? "unknown" : formatUsd(usd));
  const rows: [string, string, string][] = [
    ["Input tokens", formatCount(totals.baseline.inputTokens), formatCount(totals.candidate.inputTokens)],
    ["Cost of the input", cost(totals.baseline.costUsd), cost(totals.candidate.costUsd)],
    [
      "Cache reuse (bytes of prefix shared with the last request)",
      formatCount(totals.baseline.prefixReuseBytes),
      formatCount(totals.candidate.prefixReuseBytes),
    ],
    ["Items dropped", formatCount(totals.baseline.dropped), formatCount(totals.candidate.dropped)],
  ];
  return (
    <table className="text-sm" data-testid="experiment-totals">
      <thead>
        <tr className="text-left text-zinc-600 dark:text-zinc-400">
          <th className="pr-6 font-normal">Totals over {totals.rows - totals.failedRows} conversations</th>
          <th className="pr-6 font-normal">as today</th>
          <th className="font-normal">candidate</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([label, baseline, candidate]) => (
          <tr key={label} data-testid="experiment-total">
            <td className="pr-6">{label}</td>
            <td className="pr-6 tabular-nums">{baseline}</td>
            <td className="tabular-nums">{candidate}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ResultTable({ experimentId, rows }: { experimentId: string; rows: ExperimentRow[] }) {
  const [sort, setSort] = useState<SortState>({ column: "position", descending: false });
  const [open, setOpen] = useState<number | null>(null);
  const sorted = sortRows(rows, sort);
  const header = (column: (typeof COLUMNS)[number]) => (
    <th
      key={column.key}
      className="px-2 py-1 font-medium"
      aria-sort={sort.column === column.key ? (sort.descending ? "descending" : "ascending") : undefined}
    >
      <button
        type="button"
        className="hover:underline"
        onClick={() =>
          setSort((current) => ({
            column: column.key,
            descending: current.column === column.key ? !current.descending : true,
          }))
        }
        data-testid={`sort-${column.key}`}
      >
        {column.label}
        {sort.column === column.key ? (sort.descending ? " ↓" : " ↑") : ""}
      </button>
    </th>
  );
  return (
    <table className="w-full text-left text-sm" data-testid="experiment-table">
      <thead>
        <tr className="border-b border-zinc-200 dark:border-zinc-800">
          {COLUMNS.map(header)}
          <th />
        </tr>
      </thead>
      <tbody>
        {sorted.map(({ row, position }) => (
          <ResultRow
            key={position}
            row={row}
            position={position}
            open={open === position}
            onToggle={() => setOpen(open === position ? null : position)}
            experimentId={experimentId}
          />
        ))}
      </tbody>
    </table>
  );
}

function ResultRow({
  row,
  position,
  open,
  onToggle,
  experimentId,
}: {
  row: ExperimentRow;
  position: number;
  open: boolean;
  onToggle: () => void;
  experimentId: string;
}) {
  return (
    <>
      <tr
        className="border-b border-zinc-100 dark:border-zinc-900"
        data-testid="experiment-row"
        data-position={position}
      >
        {COLUMNS.map((column) => (
          <td key={column.key} className="px-2 py-1 tabular-nums" data-column={column.key}>
            {column.cell(row, position)}
          </td>
        ))}
        <td className="px-2 py-1">
          {row.error === null ? (
            <button type="button" className="underline" onClick={onToggle} data-testid="experiment-row-diff">
              {open ? "Close" : "Diff"}
            </button>
          ) : (
            <span className="text-red-700 dark:text-red-300">{row.error}</span>
          )}
        </td>
      </tr>
      {open && (
        <tr>
          <td colSpan={COLUMNS.length + 1} className="p-2">
            <RowDiff experimentId={experimentId} position={position} row={row} />
          </td>
        </tr>
      )}
    </>
  );
}
