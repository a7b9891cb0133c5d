"use client";
// What a summary covers, in one line of facts: how many messages, through which one, what made it, which model
// wrote it and when.
import { formatCount } from "@/components/ui/format";
import type { ChatUIMessage } from "@/lib/chat/views/ui-messages";
import { messageText } from "./message-item";
import type { SummaryView } from "./summary-api";

const TRIGGER_LABELS: Record<SummaryView["trigger"], string> = {
  manual: "Compact now",
  turn: "turn threshold",
  token: "token threshold",
};

const EXCERPT_CHARS = 60;

export function formatSummaryTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" });
}

/** "#10 · Ada: “Fifth question”" for the last covered message, when the transcript has it. */
function throughLabel(summary: SummaryView, messages: readonly ChatUIMessage[]): string {
  const last = messages.find((message) => message.metadata?.seq === summary.coversThroughSeq);
  if (!last) return `#${summary.coversThroughSeq}`;
  const text = messageText(last).replace(/\s+/g, " ").trim();
  const excerpt = text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
  const author = last.metadata?.authorName ?? (last.role === "user" ? "User" : "Assistant");
  return `#${summary.coversThroughSeq} · ${author}${excerpt ? `: “${excerpt}”` : ""}`;
}

export function SummaryFacts({
  summary,
  messages,
}: {
  summary: SummaryView;
  messages: readonly ChatUIMessage[];
}) {
  const facts: { label: string; value: string; testId: string }[] = [
    {
      label: "Covers",
      value: `${formatCount(summary.messageCount)} ${summary.messageCount === 1 ? "message" : "messages"}`,
      testId: "summary-message-count",
    },
    { label: "Through", value: throughLabel(summary, messages), testId: "summary-through" },
    {
      label: "Trigger",
      value: TRIGGER_LABELS[summary.trigger] ?? summary.trigger,
      testId: "summary-trigger",
    },
    { label: "Model", value: summary.modelId ?? "unknown", testId: "summary-model" },
    { label: "Made", value: formatSummaryTime(summary.createdAt), testId: "summary-created" },
  ];
  if (summary.tokensBefore !== null && summary.tokensAfter !== null) {
    facts.push({
      label: "Tokens",
      value: `${formatCount(summary.tokensBefore)} covered → ${formatCount(summary.tokensAfter)} as the summary (estimates)`,
      testId: "summary-tokens",
    });
  }
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs" data-testid="summary-facts">
      {facts.map((fact) => (
        <div key={fact.testId} className="contents">
          <dt className="text-zinc-500 dark:text-zinc-400">{fact.label}</dt>
          <dd className="truncate text-zinc-800 dark:text-zinc-200" data-testid={fact.testId}>
            {fact.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
