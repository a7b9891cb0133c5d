"use client";
// The payload against the previous turn's: items added, removed, changed and moved (by item id), and the
// byte prefix the two request bodies share, which is what a provider's prompt cache can reuse, set against the
// cache reads the provider reported (said plainly when the two disagree).
import { useMemo, useState } from "react";
import type { ContextItem } from "@/lib/domain/types";
import {
  describePrefixStability,
  diffItems,
  type ItemChange,
  type ItemDiffEntry,
  type PrefixStability,
  prefixStability,
} from "@/lib/payload-diff";
import {
  type CacheAgreement,
  type CacheMissExplanation,
  compareCacheWithPrefix,
  describeCacheMiss,
  explainCacheMiss,
  stablePrefixTokens,
} from "@/lib/prompt-cache";
import { TagChip } from "./tag-chip";
import type { PayloadView } from "./types";

const CHANGE_STYLE: Record<ItemChange, string> = {
  added: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
  removed: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
  changed: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200",
  moved: "bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-200",
  same: "bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300",
};

function snippet(item: ContextItem): string {
  const text = item.parts
    .map((part) =>
      part.type === "text" || part.type === "reasoning"
        ? part.text
        : part.type === "tool-call" || part.type === "tool-result"
          ? `[${part.type} ${part.toolName}]`
          : `[${part.type}]`,
    )
    .join(" ");
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

/** The bodies around the first differing character, so the reader sees what broke the cache. */
function DivergenceContext({ previous, current, at }: { previous: string; current: string; at: number }) {
  const from = Math.max(0, at - 48);
  const row = (label: string, body: string, tone: string) => (
    <div className="flex gap-2">
      <span className="w-16 shrink-0 text-zinc-500 dark:text-zinc-400">{label}</span>
      <code className="min-w-0 break-all">
        <span className="text-zinc-500 dark:text-zinc-400">
          {from > 0 ? "…" : ""}
          {body.slice(from, at)}
        </span>
        <span className={`rounded-sm px-px ${tone}`}>{body.slice(at, at + 48) || "∅"}</span>
        {body.length > at + 48 ? "…" : ""}
      </code>
    </div>
  );
  return (
    <div className="code-surface space-y-1 p-2 text-[11px]" data-testid="prefix-divergence">
      {row("previous", previous, "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200")}
      {row("this", current, "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200")}
    </div>
  );
}

export function PayloadDiffView({
  current,
  previous,
  previousLabel,
}: {
  current: PayloadView;
  previous: PayloadView | null;
  previousLabel: string;
}) {
  const [showSame, setShowSame] = useState(false);
  const diff = useMemo(
    () => (previous ? diffItems(previous.items, current.items) : null),
    [previous, current],
  );
  const stability = useMemo(
    () =>
      previous?.request && current.request
        ? prefixStability(previous.request.body, current.request.body)
        : null,
    [previous, current],
  );

  const agreement = diff ? compareCacheWithPrefix(stablePrefixTokens(diff.entries), current.usage) : null;

  if (!previous || !diff) {
    return (
      <section data-testid="payload-diff" data-empty="true">
        <p className="rounded-lg bg-zinc-50 px-3 py-2 text-sm text-zinc-500 dark:bg-zinc-900 dark:text-zinc-400">
          This is the first turn of the conversation: there is no earlier payload to compare with.
        </p>
      </section>
    );
  }

  let sameRun = 0;
  return (
    <section className="space-y-3" data-testid="payload-diff">
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        Compared with {previousLabel}, item by item (matched by item id).
      </p>
      <div className="flex flex-wrap gap-1.5" data-testid="diff-counts">
        {(["added", "removed", "changed", "moved", "same"] as const).map((change) => (
          <span
            key={change}
            className={`chip ${CHANGE_STYLE[change]}`}
            data-testid={`diff-count-${change}`}
            data-count={diff.counts[change]}
          >
            {diff.counts[change]} {change === "same" ? "unchanged" : change}
          </span>
        ))}
      </div>

      {stability && (
        <CacheMissSentence
          explanation={explainCacheMiss(previous.items, current.items, stability.stableBytes, null)}
        />
      )}
      <PrefixStabilityPanel
        stability={stability}
        previousBody={previous.request?.body}
        currentBody={current.request?.body}
        agreement={agreement}
      />

      <ol className="space-y-1" data-testid="diff-entries">
        {diff.entries.map((entry, index) => {
          if (entry.change === "same" && !showSame) {
            sameRun += 1;
            const next = diff.entries[index + 1];
            if (next && next.change === "same") return null;
            const run = sameRun;
            sameRun = 0;
            return (
              <li key={`same-${entry.item.id}`}>
                <button
                  type="button"
                  onClick={() => setShowSame(true)}
                  className="w-full rounded-md px-2 py-1 text-left text-[11px] text-zinc-500 hover:bg-zinc-50 dark:hover:bg-zinc-900 dark:text-zinc-400"
                  data-testid="diff-same-run"
                >
                  ⋯ {run} unchanged {run === 1 ? "item" : "items"}
                </button>
              </li>
            );
          }
          return <DiffEntryRow key={`${entry.change}-${entry.item.id}`} entry={entry} />;
        })}
      </ol>
      {showSame && (
        <button
          type="button"
          onClick={() => setShowSame(false)}
          className="text-[11px] font-medium text-indigo-600 hover:underline dark:text-indigo-400"
        >
          Hide unchanged items
        </button>
      )}
    </section>
  );
}

/** How much of the previous request body this one repeats from the start, where they part, and whether the
 *  provider's cache reads agree. */
function PrefixStabilityPanel({
  stability,
  previousBody,
  currentBody,
  agreement,
}: {
  stability: PrefixStability | null;
  previousBody: string | undefined;
  currentBody: string | undefined;
  agreement: CacheAgreement | null;
}) {
  if (!stability) {
    return (
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        One of the two attempts has no recorded request body, so the byte prefix cannot be compared.
      </p>
    );
  }
  return (
    <div
      className="space-y-1.5 rounded-lg border border-zinc-200 p-2.5 dark:border-zinc-800"
      data-testid="prefix-stability"
    >
      <p className="text-xs">
        <span className="font-medium" data-testid="prefix-stability-text">
          {describePrefixStability(stability)}
        </span>
      </p>
      <div
        className="flex h-1.5 overflow-hidden rounded-full bg-red-200 dark:bg-red-900/60"
        aria-hidden="true"
      >
        <span className="bg-emerald-500" style={{ width: `${Math.min(100, stability.percent)}%` }} />
      </div>
      <p className="text-[11px] text-zinc-500 dark:text-zinc-400">
        The share of the previous request this one repeats byte for byte from the start: what a
        provider&apos;s prompt cache can reuse.{" "}
        {stability.divergeAt === null
          ? "Nothing before the end diverged."
          : `They first differ at character ${stability.divergeAt.toLocaleString("en-US")}.`}
      </p>
      {stability.divergeAt !== null && previousBody !== undefined && currentBody !== undefined && (
        <DivergenceContext previous={previousBody} current={currentBody} at={stability.divergeAt} />
      )}
      {agreement && (
        <p
          className={`text-[11px] ${agreement.agree ? "text-zinc-500 dark:text-zinc-400" : "rounded-md bg-amber-50 px-2 py-1 text-amber-900 dark:bg-amber-950/40 dark:text-amber-200"}`}
          data-testid="cache-agreement"
          data-agree={agreement.agree}
        >
          {agreement.message}
        </p>
      )}
    </div>
  );
}

/** Why the cache could not serve more of this request, in a sentence: what changed first, and what it cost. */
function CacheMissSentence({ explanation }: { explanation: CacheMissExplanation }) {
  return (
    <p
      className="text-xs font-medium"
      data-testid="cache-miss"
      data-byte-offset={explanation.firstDivergence?.byteOffset ?? ""}
      data-item-id={explanation.firstDivergence?.itemId ?? ""}
      data-missed-tokens={explanation.missedInputTokens}
      data-miss-cost={explanation.missCostUsd ?? ""}
    >
      {describeCacheMiss(explanation)}
    </p>
  );
}

/** One item of the diff: its change, tag, role, what changed in it, and the start of its text. */
function DiffEntryRow({ entry }: { entry: ItemDiffEntry<ContextItem> }) {
  return (
    <li
      className={`rounded-lg border px-2.5 py-1.5 ${entry.change === "removed" ? "border-red-200 bg-red-50/40 dark:border-red-900/50 dark:bg-red-950/20" : "border-zinc-200 dark:border-zinc-800"}`}
      data-testid="diff-entry"
      data-change={entry.change}
      data-item-id={entry.item.id}
      data-tag={entry.item.tag}
    >
      <div className="flex flex-wrap items-center gap-1.5 text-[11px]">
        <span className={`chip ${CHANGE_STYLE[entry.change]}`}>
          {entry.change === "same" ? "unchanged" : entry.change}
        </span>
        <TagChip tag={entry.item.tag} />
        <span className="font-mono text-zinc-500 dark:text-zinc-400">{entry.item.role}</span>
        {entry.details.length > 0 && (
          <span className="text-zinc-500 dark:text-zinc-400">· {entry.details.join(", ")}</span>
        )}
      </div>
      <p
        className={`mt-1 text-xs break-words text-zinc-700 dark:text-zinc-300 ${entry.change === "removed" ? "line-through decoration-red-400/60" : ""}`}
        data-testid="diff-entry-text"
      >
        {snippet(entry.item)}
      </p>
    </li>
  );
}
