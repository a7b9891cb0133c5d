"use client";
// One context item as sent: position, role, tag (colour and description), sender, tokens, the parts, the
// messages it came from (click to find them in the transcript), the trace events that touched it, and a chip
// when the provider was asked to cache the prefix up to it.
import { memo } from "react";
import { formatCount } from "@/components/ui/format";
import { describeBreakpointPlace } from "@/lib/context/cache-breakpoints";
import { TAG_DESCRIPTIONS } from "@/lib/context/tags";
import type { TraceEvent } from "@/lib/domain/types";
import { ItemParts } from "./item-parts";
import { stageLabel } from "./stages";
import { TagChip } from "./tag-chip";
import { tagStyle } from "./tag-style";
import type { ViewItem } from "./types";

const ROLE_STYLE: Record<string, string> = {
  system: "text-slate-600 dark:text-slate-300",
  user: "text-sky-700 dark:text-sky-300",
  assistant: "text-indigo-700 dark:text-indigo-300",
  tool: "text-emerald-700 dark:text-emerald-300",
};

export const ItemCard = memo(function ItemCard({
  item,
  position,
  systemPart,
  highlighted,
  events,
  onRevealMessage,
  onFocusEvent,
  onShowBytes,
}: {
  item: ViewItem;
  position: number;
  /** Where this system item sits in the one system message the wire sends, when there are several. */
  systemPart?: { part: number; of: number };
  highlighted: boolean;
  events: { event: TraceEvent; index: number }[];
  onRevealMessage: (messageId: string) => void;
  onFocusEvent: (index: number) => void;
  /** Opens the raw view with the element at this JSON Pointer marked. */
  onShowBytes?: (pointer: string) => void;
}) {
  const notice = item.tag === "MEDIA_NOTICE" || item.tag === "PERSONA_USER_BLOCKS";
  return (
    <div
      className={`rounded-lg border border-l-[3px] border-zinc-200 px-3 py-2 transition-shadow dark:border-zinc-800 ${tagStyle(item.tag).edge} ${
        notice ? "bg-amber-50/70 dark:bg-amber-950/20" : "bg-white dark:bg-zinc-900"
      } ${highlighted ? "shadow-[0_0_0_2px] shadow-indigo-500/70 dark:shadow-indigo-400/70" : ""}`}
      data-testid="inspector-item"
      data-item-id={item.id}
      data-tag={item.tag}
      data-role={item.role}
      data-highlighted={highlighted || undefined}
      data-dropped={item.dropped ? true : undefined}
    >
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-[11px]">
        <span className="font-mono text-zinc-500 tabular-nums dark:text-zinc-400" data-testid="item-position">
          #{position}
        </span>
        <span className={`font-mono font-semibold ${ROLE_STYLE[item.role] ?? ""}`} data-testid="item-role">
          {item.role}
        </span>
        <TagChip tag={item.tag} />
        {item.sender && <span className="truncate text-zinc-500 dark:text-zinc-400">{item.sender.name}</span>}
        {systemPart && (
          <span
            className="chip bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-200"
            title="The provider receives every system item as one system message (its instructions), in this order, separated by a blank line"
            data-testid="item-system-merge"
          >
            one system message · part {systemPart.part} of {systemPart.of}
          </span>
        )}
        {item.cacheBreakpoint && (
          <span
            className="chip bg-teal-100 text-teal-800 dark:bg-teal-950 dark:text-teal-200"
            title="The provider was asked to cache the request up to the end of this item (a cache_control breakpoint)"
            data-testid="cache-breakpoint-chip"
            data-place={item.cacheBreakpoint}
          >
            cache breakpoint · {describeBreakpointPlace(item.cacheBreakpoint)}
          </span>
        )}
        {item.redacted && (
          <span
            className="chip bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200"
            data-testid="item-redacted"
            title="Someone else's private memory was replaced here"
          >
            redacted
          </span>
        )}
        <span
          className="ml-auto font-mono text-zinc-500 tabular-nums dark:text-zinc-400"
          data-testid="item-tokens"
        >
          {formatCount(item.tokens)} tok
        </span>
      </div>
      <p
        className="mt-0.5 truncate text-[11px] text-zinc-500 dark:text-zinc-400"
        data-testid="item-description"
      >
        {TAG_DESCRIPTIONS[item.tag]}
      </p>
      {item.dropped && (
        <p
          className="mt-1 rounded bg-rose-50 px-2 py-1 text-[11px] text-rose-800 dark:bg-rose-950/40 dark:text-rose-200"
          data-testid="item-dropped"
        >
          Not in the request body: {item.dropped.reason}
        </p>
      )}
      <div className={item.dropped ? "line-through decoration-rose-500/70 opacity-70" : undefined}>
        <ItemParts parts={item.parts} />
      </div>
      {item.droppedParts?.map((entry) => (
        <p
          key={entry.part}
          className="mt-1 text-[11px] text-rose-800 dark:text-rose-200"
          data-testid="item-dropped-part"
        >
          Part {entry.part + 1} is not in the body: {entry.reason}
        </p>
      ))}
      {(item.sourceMessageIds.length > 0 || events.length > 0 || (item.wirePaths?.length ?? 0) > 0) && (
        <div className="mt-2 flex flex-wrap items-center gap-1">
          {/* Where the item sits in the request body: each opens the raw view with those bytes marked. */}
          {item.wirePaths?.map((pointer) => (
            <button
              key={pointer}
              type="button"
              onClick={() => onShowBytes?.(pointer)}
              className="chip bg-zinc-100 font-mono text-zinc-700 hover:bg-indigo-50 hover:text-indigo-700 dark:bg-zinc-800 dark:text-zinc-200 dark:hover:bg-indigo-950 dark:hover:text-indigo-300"
              title={
                item.merged
                  ? "Where it is in the request body (shared with another item): show these bytes in the raw request"
                  : "Where it is in the request body: show these bytes in the raw request"
              }
              data-testid="item-wire-path"
              data-pointer={pointer}
              data-merged={item.merged || undefined}
            >
              {"{ }"} {pointer}
            </button>
          ))}
          {item.sourceMessageIds.map((messageId, index) => (
            <button
              key={messageId}
              type="button"
              onClick={() => onRevealMessage(messageId)}
              className="chip bg-zinc-100 font-mono text-zinc-600 hover:bg-indigo-50 hover:text-indigo-700 dark:bg-zinc-800 dark:text-zinc-300 dark:hover:bg-indigo-950 dark:hover:text-indigo-300"
              data-testid="source-link"
              data-message-id={messageId}
              title="Show this message in the transcript"
            >
              ↗ {item.sourceMessageIds.length > 1 ? `source ${index + 1}` : "source"} · {messageId.slice(-6)}
            </button>
          ))}
          {events.map(({ event, index }) => (
            <button
              key={index}
              type="button"
              onClick={() => onFocusEvent(index)}
              className={`chip font-mono ${
                event.level === "warning"
                  ? "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200"
                  : "bg-indigo-50 text-indigo-700 dark:bg-indigo-950/60 dark:text-indigo-300"
              }`}
              title={event.reason}
              data-testid="item-trace-chip"
            >
              {stageLabel(event.stage)}: {event.action}
            </button>
          ))}
        </div>
      )}
    </div>
  );
});
