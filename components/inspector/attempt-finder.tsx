"use client";
// Find attempts: every model call of the conversations the reader may read, filtered by model, status, kind, a
// tag that was sent, a trace action and dates, newest first; each opens in the inspector. The filters live in the
// address, so a search can be shared or reloaded.
import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { SaveDatasetForm } from "@/components/lab/save-dataset-form";
import { apiFetch } from "@/components/ui/api-client";
import { formatCount, formatMs } from "@/components/ui/format";
import { Labelled } from "@/components/ui/labelled";
import type { ApiOutput } from "@/lib/api/responses";
import { ITEM_TAGS } from "@/lib/domain/types";
import { ATTEMPT_KIND_LABELS } from "./attempt-kinds";
import { CostLabel } from "./cost-label";

type FoundAttempts = ApiOutput<"GET /api/attempts">;
type FoundAttempt = FoundAttempts["attempts"][number];

/** The filters in the form's order: a choice of `options` (after "any"), or a text or date box. */
const FILTER_FIELDS: readonly {
  name: string;
  label: string;
  type?: "date";
  placeholder?: string;
  options?: readonly (readonly [string, string])[];
  testId?: string;
}[] = [
  { name: "model", label: "Model", placeholder: "openai:gpt-4.1-mini", testId: "filter-model" },
  { name: "status", label: "Status", options: ["ok", "error", "stopped"].map(pair), testId: "filter-status" },
  { name: "kind", label: "Kind", options: Object.entries(ATTEMPT_KIND_LABELS), testId: "filter-kind" },
  { name: "tag", label: "An item tag that was sent", options: ITEM_TAGS.map(pair), testId: "filter-tag" },
  {
    name: "action",
    label: "A trace action",
    placeholder: "dropped-turn, omitted-images…",
    testId: "filter-action",
  },
  { name: "from", label: "From", type: "date" },
  { name: "to", label: "To", type: "date" },
];
const FILTERS = FILTER_FIELDS.map((field) => field.name);

/** An option whose label is its value. */
function pair(value: string): readonly [string, string] {
  return [value, value];
}

export function AttemptFinder() {
  const params = useSearchParams();
  const filters = new URLSearchParams();
  for (const name of FILTERS) {
    const value = params.get(name);
    if (value) filters.set(name, value);
  }
  const query = filters.toString();
  const results = useInfiniteQuery({
    queryKey: ["attempt-search", query],
    queryFn: ({ pageParam }) =>
      apiFetch<FoundAttempts>(
        `/api/attempts?${query}${pageParam ? `${query ? "&" : ""}before=${encodeURIComponent(pageParam)}` : ""}`,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextBefore,
  });
  const rows = results.data?.pages.flatMap((page) => page.attempts) ?? [];

  return (
    <main
      className="mx-auto w-full max-w-6xl space-y-4 p-4 sm:p-6"
      id="main-content"
      data-testid="attempt-finder"
    >
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-xl font-semibold tracking-tight">Find attempts</h1>
        <Link href="/chat" className="text-sm text-indigo-700 underline dark:text-indigo-300">
          Back to the chat
        </Link>
      </header>
      <p className="text-sm text-zinc-600 dark:text-zinc-300">
        Every model call of the conversations you can read: replies and their retries, summaries, titles,
        drafts and replays.
      </p>
      <AttemptFilters />
      {results.error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400" data-testid="attempt-finder-error">
          {results.error.message}
        </p>
      )}
      {results.isSuccess && rows.length === 0 && (
        <p className="text-sm text-zinc-600 dark:text-zinc-300" data-testid="attempt-finder-empty">
          No model call matches these filters.
        </p>
      )}
      {rows.length > 0 && (
        <div className="max-w-xl space-y-1" data-testid="attempt-finder-dataset">
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            Save these conversations as a dataset, to try a change on them (an experiment).
          </p>
          <SaveDatasetForm
            conversationIds={[...new Set(rows.map((row) => row.conversationId))]}
            label="Save these conversations as a dataset"
          />
        </div>
      )}
      {rows.length > 0 && <AttemptResults rows={rows} />}
      {results.hasNextPage && (
        <button
          type="button"
          className="button-secondary"
          onClick={() => void results.fetchNextPage()}
          disabled={results.isFetchingNextPage}
          data-testid="attempt-results-more"
        >
          {results.isFetchingNextPage ? "Loading…" : "Show older calls"}
        </button>
      )}
    </main>
  );
}

/** The filter form: submitting it puts the filters in the address, which runs the search. */
function AttemptFilters() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  return (
    <form
      className="grid gap-3 rounded-xl border border-zinc-200 p-3 text-sm sm:grid-cols-4 dark:border-zinc-800"
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const next = new URLSearchParams();
        for (const name of FILTERS) {
          const value = String(form.get(name) ?? "").trim();
          if (value) next.set(name, value);
        }
        router.push(`${pathname}${next.size > 0 ? `?${next}` : ""}`);
      }}
      data-testid="attempt-filters"
    >
      {FILTER_FIELDS.map(({ name, label, type, placeholder, options, testId }) => (
        <Labelled key={name} label={label}>
          {options ? (
            <select name={name} defaultValue={params.get(name) ?? ""} className="input" data-testid={testId}>
              <option value="">any</option>
              {options.map(([value, text]) => (
                <option key={value} value={value}>
                  {text}
                </option>
              ))}
            </select>
          ) : (
            <input
              type={type}
              name={name}
              defaultValue={params.get(name) ?? ""}
              placeholder={placeholder}
              className="input"
              data-testid={testId}
            />
          )}
        </Labelled>
      ))}
      <div className="flex items-end">
        <button type="submit" className="button-primary w-full" data-testid="filter-apply">
          Find
        </button>
      </div>
    </form>
  );
}

/** The calls found, newest first, each opening in the inspector. */
function AttemptResults({ rows }: { rows: FoundAttempt[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="attempt-results">
        <thead className="text-xs text-zinc-600 dark:text-zinc-300">
          <tr>
            <th className="py-2 pr-3 font-medium">When</th>
            <th className="py-2 pr-3 font-medium">Conversation</th>
            <th className="py-2 pr-3 font-medium">Kind</th>
            <th className="py-2 pr-3 font-medium">Model</th>
            <th className="py-2 pr-3 font-medium">Status</th>
            <th className="py-2 pr-3 font-medium">Tokens in / out</th>
            <th className="py-2 pr-3 font-medium">Done in</th>
            <th className="py-2 pr-3 font-medium">Cost</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.id}
              className="border-t border-zinc-200 dark:border-zinc-800"
              data-testid="attempt-result"
              data-kind={row.kind}
              data-status={row.status}
            >
              <td className="py-2 pr-3 whitespace-nowrap">
                <Link
                  href={`/attempts/${row.id}`}
                  className="text-indigo-700 underline dark:text-indigo-300"
                  data-testid="attempt-result-open"
                >
                  {new Date(row.createdAt).toLocaleString()}
                </Link>
              </td>
              <td className="max-w-56 truncate py-2 pr-3">
                <Link href={`/chat/${row.conversationId}`} className="hover:underline">
                  {row.conversationTitle}
                </Link>
              </td>
              <td className="py-2 pr-3">{ATTEMPT_KIND_LABELS[row.kind]}</td>
              <td className="py-2 pr-3 font-mono text-xs">{row.modelId}</td>
              <td className="py-2 pr-3 font-mono text-xs">
                {row.status}
                {row.error?.status ? ` ${row.error.status}` : ""}
              </td>
              <td className="py-2 pr-3 font-mono text-xs tabular-nums">
                {row.usage?.inputTokens !== undefined ? formatCount(row.usage.inputTokens) : "—"} /{" "}
                {row.usage?.outputTokens !== undefined ? formatCount(row.usage.outputTokens) : "—"}
              </td>
              <td className="py-2 pr-3 font-mono text-xs tabular-nums">{formatMs(row.timings.doneMs)}</td>
              <td className="py-2 pr-3 font-mono text-xs">
                <CostLabel cost={row.cost} testId="attempt-result-cost" />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
