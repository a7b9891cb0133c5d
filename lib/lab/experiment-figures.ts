// The figures of an experiment (docs/lab.md): per conversation, each side's payload measured (tokens, cost, items,
// dropped items, bytes of prefix shared with the conversation's last real request) and the item diff between the
// two; the totals are the sums of the rows. Pure and client-safe: the results page sorts and exports these.

import { type DiffableItem, diffItems, type ItemChange, prefixStability } from "@/lib/payload-diff";
import { costOfUsage, type ModelPrices } from "@/lib/pricing";

export interface SideFigures {
  /** The pipeline's count of the payload's input tokens. */
  inputTokens: number;
  /** Those tokens at the model's input price; null when the model has no prices. */
  costUsd: number | null;
  /** Items in the payload. */
  items: number;
  /** Items the pipeline left out of it (the trace's `dropped-*` events, and items the wire did not carry). */
  dropped: number;
  /** Leading bytes of the request body identical to the conversation's last real request's (0 without one). */
  prefixReuseBytes: number;
}

export type DiffCounts = Record<ItemChange, number>;

export interface ExperimentRowSummary {
  conversationId: string;
  baseline: SideFigures | null;
  candidate: SideFigures | null;
  diff: DiffCounts | null;
  /** Why the row could not be built (the conversation is gone, the context does not fit…); null when it was. */
  error: string | null;
  /** With `live`: the two replies, each a replay attempt of the conversation's last reply. */
  live?: { baseline: LiveReply; candidate: LiveReply } | null;
}

export interface LiveReply {
  attemptId: string;
  status: string;
  text: string;
}

export interface ExperimentTotals {
  rows: number;
  failedRows: number;
  baseline: SideFigures;
  candidate: SideFigures;
  diff: DiffCounts;
}

/** What one side of a row is measured from: a preview's payload. */
export interface MeasuredPayload {
  items: readonly (DiffableItem & { dropped?: unknown })[];
  trace: readonly { action: string; itemIds?: string[] }[];
  budget: { totalTokens: number };
  request: { body: string };
}

function droppedCount(payload: MeasuredPayload): number {
  const ids = new Set<string>();
  for (const event of payload.trace) {
    if (event.action.startsWith("dropped")) for (const id of event.itemIds ?? []) ids.add(id);
  }
  for (const item of payload.items) if (item.dropped) ids.add(item.id);
  return ids.size;
}

export function sideFigures(
  payload: MeasuredPayload,
  lastRequestBody: string | null,
  prices: ModelPrices | null | undefined,
): SideFigures {
  const inputTokens = payload.budget.totalTokens;
  return {
    inputTokens,
    costUsd: costOfUsage({ inputTokens }, prices)?.totalUsd ?? null,
    items: payload.items.length,
    dropped: droppedCount(payload),
    prefixReuseBytes:
      lastRequestBody === null ? 0 : prefixStability(lastRequestBody, payload.request.body).stableBytes,
  };
}

/** The canonical item diff's counts, baseline → candidate (lib/payload-diff.ts). */
export function diffCounts(baseline: MeasuredPayload, candidate: MeasuredPayload): DiffCounts {
  return diffItems(baseline.items, candidate.items).counts;
}

/** One side's payload as a row keeps it for its diff: what the inspector's payload views read. */
export interface StoredPayload {
  modelId: string;
  provider: string;
  items: unknown[];
  budget: unknown;
  request: { url: string; body: string };
}

export interface ExperimentPayloads {
  baseline: StoredPayload;
  candidate: StoredPayload;
}

export function storedPayload(
  payload: MeasuredPayload & { modelId: string; provider: string; request: { url: string } },
): StoredPayload {
  return {
    modelId: payload.modelId,
    provider: payload.provider,
    items: [...payload.items],
    budget: payload.budget,
    request: { url: payload.request.url, body: payload.request.body },
  };
}

const emptySide = (): SideFigures => ({
  inputTokens: 0,
  costUsd: null,
  items: 0,
  dropped: 0,
  prefixReuseBytes: 0,
});

function addSide(total: SideFigures, side: SideFigures): SideFigures {
  return {
    inputTokens: total.inputTokens + side.inputTokens,
    // Unknown never reads as free: the total is of the rows whose cost is known, null when none is.
    costUsd: side.costUsd === null ? total.costUsd : (total.costUsd ?? 0) + side.costUsd,
    items: total.items + side.items,
    dropped: total.dropped + side.dropped,
    prefixReuseBytes: total.prefixReuseBytes + side.prefixReuseBytes,
  };
}

export function experimentTotals(rows: readonly ExperimentRowSummary[]): ExperimentTotals {
  const totals: ExperimentTotals = {
    rows: rows.length,
    failedRows: 0,
    baseline: emptySide(),
    candidate: emptySide(),
    diff: { added: 0, removed: 0, changed: 0, moved: 0, same: 0 },
  };
  for (const row of rows) {
    if (!row.baseline || !row.candidate || !row.diff) {
      totals.failedRows += 1;
      continue;
    }
    totals.baseline = addSide(totals.baseline, row.baseline);
    totals.candidate = addSide(totals.candidate, row.candidate);
    for (const change of Object.keys(totals.diff) as ItemChange[]) totals.diff[change] += row.diff[change];
  }
  return totals;
}

const SIDE_COLUMNS = ["inputTokens", "costUsd", "items", "dropped", "prefixReuseBytes"] as const;
const DIFF_COLUMNS = ["added", "removed", "changed", "moved", "same"] as const;

/** The columns of the CSV export, in order: the conversation, each side's figures, the diff, the error. */
export const CSV_HEADER = [
  "conversationId",
  ...SIDE_COLUMNS.map((column) => `baseline.${column}`),
  ...SIDE_COLUMNS.map((column) => `candidate.${column}`),
  ...DIFF_COLUMNS.map((column) => `diff.${column}`),
  "error",
];

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function experimentCsv(rows: readonly ExperimentRowSummary[]): string {
  const lines = rows.map((row) =>
    [
      row.conversationId,
      ...SIDE_COLUMNS.map((column) => row.baseline?.[column]),
      ...SIDE_COLUMNS.map((column) => row.candidate?.[column]),
      ...DIFF_COLUMNS.map((column) => row.diff?.[column]),
      row.error,
    ]
      .map(csvCell)
      .join(","),
  );
  return `${[CSV_HEADER.join(","), ...lines].join("\r\n")}\r\n`;
}
