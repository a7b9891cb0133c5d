"use client";
// One payload (an attempt's or a preview's) in three views: the items with their token bar and trace side by
// side, the raw request, and the diff against the previous turn. Everything scrolls in one container; the view
// tabs stay pinned at its top.
import { type ReactNode, type RefObject, useCallback, useMemo, useRef, useState } from "react";
import { TabGroup, TabList, TabPanel } from "@/components/ui/tabs";
import { VirtualList, type VirtualListHandle } from "@/components/ui/virtual-list";
import type { ContextItem, ItemTag, TraceEvent } from "@/lib/domain/types";
import { DroppedItems } from "./dropped-items";
import { ItemCard } from "./item-card";
import { PayloadDiffView } from "./payload-diff-view";
import { RawRequest } from "./raw-request";
import { TokenBar } from "./token-bar";
import { type TraceHighlight, TracePanel } from "./trace-panel";
import { attemptPayload, type PayloadView } from "./types";
import { useAttempt } from "./use-inspector-data";
import { WireNotes } from "./wire-notes";

type View = "payload" | "raw" | "diff";

/** For each trace event, the ids of the items it touched: by item id, or through the messages it names. */
function itemsTouchedByEvents(items: ContextItem[], trace: TraceEvent[]): string[][] {
  const itemIds = new Set(items.map((item) => item.id));
  const itemsByMessage = new Map<string, string[]>();
  for (const item of items) {
    for (const messageId of item.sourceMessageIds)
      itemsByMessage.set(messageId, [...(itemsByMessage.get(messageId) ?? []), item.id]);
  }
  return trace.map((event) => {
    const touched = new Set<string>();
    for (const id of event.itemIds ?? []) if (itemIds.has(id)) touched.add(id);
    for (const messageId of event.messageIds ?? [])
      for (const id of itemsByMessage.get(messageId) ?? []) touched.add(id);
    return [...touched];
  });
}

/** The diff view, with the previous turn's payload fetched only when the diff is opened. */
function DiffAgainstAttempt({
  current,
  previousAttemptId,
  previousLabel,
}: {
  current: PayloadView;
  previousAttemptId: string | null;
  previousLabel: string;
}) {
  const previous = useAttempt(previousAttemptId);
  if (previousAttemptId && !previous.data) {
    return (
      <p className="text-sm text-zinc-500 dark:text-zinc-400" data-testid="diff-loading">
        {previous.error ? previous.error.message : "Loading the previous payload…"}
      </p>
    );
  }
  return (
    <PayloadDiffView
      current={current}
      previous={previous.data ? attemptPayload(previous.data) : null}
      previousLabel={previousLabel}
    />
  );
}

export function PayloadSections({
  payload,
  previousAttemptId,
  previousLabel,
  header,
  requests,
  downloadName,
  usageNote,
  onRevealMessage,
}: {
  payload: PayloadView;
  /** The attempt to diff against (the previous turn's), or null on the first turn. */
  previousAttemptId: string | null;
  previousLabel: string;
  header?: ReactNode;
  requests?: { url: string; status: number | null; body: string }[];
  downloadName: string;
  usageNote: string;
  onRevealMessage: (messageId: string) => void;
}) {
  const [view, setView] = useState<View>("payload");
  const [tagFilter, setTagFilter] = useState<ItemTag | null>(null);
  const [hovered, setHovered] = useState<number | null>(null);
  const [pinned, setPinned] = useState<number | null>(null);
  /** The body element an item's address chip asked the raw view to mark. */
  const [bytesPointer, setBytesPointer] = useState<string | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const list = useRef<VirtualListHandle>(null);

  const { touched, eventsByItem, positions, systemParts } = usePayloadIndex(payload);
  const shownItems = useMemo(
    () => (tagFilter ? payload.items.filter((item) => item.tag === tagFilter) : payload.items),
    [payload.items, tagFilter],
  );
  const active = hovered ?? pinned;
  const highlighted = useMemo(() => new Set(active === null ? [] : touched[active]), [active, touched]);

  const pin = useCallback(
    (index: number) => {
      const next = pinned === index ? null : index;
      setPinned(next);
      if (next === null) return;
      const first = touched[next][0];
      if (!first) return;
      setView("payload");
      setTagFilter(null);
      const position = payload.items.findIndex((item) => item.id === first);
      requestAnimationFrame(() => list.current?.scrollToIndex(position));
    },
    [pinned, touched, payload.items],
  );
  const focusEvent = useCallback((index: number) => {
    setPinned(index);
    document
      .querySelector(`[data-testid="trace-event"][data-event-index="${index}"]`)
      ?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }, []);

  const showBytes = useCallback((pointer: string) => {
    setBytesPointer(pointer);
    setView("raw");
  }, []);

  const cards = { positions, systemParts, highlighted, eventsByItem, onRevealMessage, focusEvent, showBytes };
  const { getKey, renderItem } = useItemCards(cards);

  return (
    <div
      ref={scroller}
      className="scrollbar-thin min-h-0 flex-1 overflow-y-auto"
      data-testid="inspector-body"
    >
      {header}
      <TabGroup<View> selected={view} onSelect={setView}>
        <PayloadTabList view={view} itemCount={payload.items.length} />
        <TabPanel value={view} className="p-3">
          {view === "payload" && (
            <PayloadItemsTab
              payload={payload}
              usageNote={usageNote}
              tagFilter={tagFilter}
              setTagFilter={setTagFilter}
              highlight={{ touched, pinned, onHover: setHovered, onPin: pin }}
              list={{ items: shownItems, getKey, renderItem, scroller, handle: list }}
            />
          )}
          {view === "raw" && (
            <RawRequest
              provider={payload.provider}
              request={payload.request}
              requests={requests}
              downloadName={downloadName}
              scrollContainer={scroller}
              highlightPointer={bytesPointer}
            />
          )}
          {view === "diff" && (
            <DiffAgainstAttempt
              current={payload}
              previousAttemptId={previousAttemptId}
              previousLabel={previousLabel}
            />
          )}
        </TabPanel>
      </TabGroup>
    </div>
  );
}

/** Per item: the trace events that touched it, its position, and its share of the one system message. */
function usePayloadIndex(payload: PayloadView) {
  const touched = useMemo(() => itemsTouchedByEvents(payload.items, payload.trace), [payload]);
  const eventsByItem = useMemo(() => {
    const map = new Map<string, { event: TraceEvent; index: number }[]>();
    touched.forEach((ids, index) => {
      for (const id of ids) map.set(id, [...(map.get(id) ?? []), { event: payload.trace[index], index }]);
    });
    return map;
  }, [touched, payload.trace]);
  const positions = useMemo(
    () => new Map(payload.items.map((item, index) => [item, index + 1])),
    [payload.items],
  );
  // The wire joins every system item that has text into one system message: say so on each of them.
  const systemParts = useMemo(() => {
    const merged = payload.items.filter(
      (item) =>
        item.role === "system" && item.parts.some((part) => part.type === "text" && /\S/.test(part.text)),
    );
    return merged.length < 2
      ? new Map<ContextItem, { part: number; of: number }>()
      : new Map(merged.map((item, index) => [item, { part: index + 1, of: merged.length }]));
  }, [payload.items]);
  return { touched, eventsByItem, positions, systemParts };
}

/** The payload tab: the token bar, the trace beside the items in the order sent, and what was left out. */
function PayloadItemsTab({
  payload,
  usageNote,
  tagFilter,
  setTagFilter,
  highlight,
  list,
}: {
  payload: PayloadView;
  usageNote: string;
  tagFilter: ItemTag | null;
  setTagFilter: (tag: ItemTag | null) => void;
  highlight: TraceHighlight;
  list: {
    items: ContextItem[];
    getKey: (item: ContextItem, index: number) => string;
    renderItem: (item: ContextItem) => ReactNode;
    scroller: RefObject<HTMLDivElement | null>;
    handle: RefObject<VirtualListHandle | null>;
  };
}) {
  return (
    <div className="space-y-4">
      <TokenBar payload={payload} activeTag={tagFilter} onTag={setTagFilter} usageNote={usageNote} />
      <div className="@container">
        <div className="grid gap-4 @min-[40rem]:grid-cols-[minmax(0,1fr)_16rem]">
          <div className="@min-[40rem]:sticky @min-[40rem]:top-12 @min-[40rem]:col-start-2 @min-[40rem]:row-start-1 @min-[40rem]:max-h-[calc(100dvh-8rem)] @min-[40rem]:self-start @min-[40rem]:overflow-y-auto scrollbar-thin">
            <TracePanel trace={payload.trace} highlight={highlight} />
          </div>
          <div className="min-w-0 @min-[40rem]:col-start-1 @min-[40rem]:row-start-1">
            <h3 className="section-title mb-2 flex items-center gap-2">
              Items in the order sent
              {tagFilter && (
                <button
                  type="button"
                  onClick={() => setTagFilter(null)}
                  className="chip bg-indigo-100 font-mono normal-case text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300"
                  data-testid="clear-tag-filter"
                >
                  only {tagFilter} ✕
                </button>
              )}
            </h3>
            <VirtualList
              items={list.items}
              getKey={list.getKey}
              renderItem={list.renderItem}
              scrollContainer={list.scroller}
              handle={list.handle}
              estimateHeight={140}
              testId="inspector-items"
            />
            <DroppedItems trace={payload.trace} />
            <WireNotes unclaimed={payload.unclaimed ?? []} warnings={payload.warnings ?? []} />
          </div>
        </div>
      </div>
    </div>
  );
}

/** What each item's card shows besides the item, and what its buttons do. */
interface ItemCardInputs {
  positions: Map<ContextItem, number>;
  systemParts: Map<ContextItem, { part: number; of: number }>;
  highlighted: Set<string>;
  eventsByItem: Map<string, { event: TraceEvent; index: number }[]>;
  onRevealMessage: (messageId: string) => void;
  focusEvent: (index: number) => void;
  showBytes: (pointer: string) => void;
}

/** The items list's keys and cards: each card with its position, its trace events and its address chips. */
function useItemCards(cards: ItemCardInputs) {
  const { positions, systemParts, highlighted, eventsByItem, onRevealMessage, focusEvent, showBytes } = cards;
  const getKey = useCallback((item: ContextItem, index: number) => `${item.id}#${index}`, []);
  const renderItem = useCallback(
    (item: ContextItem) => (
      <ItemCard
        item={item}
        position={positions.get(item) ?? 0}
        systemPart={systemParts.get(item)}
        highlighted={highlighted.has(item.id)}
        events={eventsByItem.get(item.id) ?? []}
        onRevealMessage={onRevealMessage}
        onFocusEvent={focusEvent}
        onShowBytes={showBytes}
      />
    ),
    [positions, systemParts, highlighted, eventsByItem, onRevealMessage, focusEvent, showBytes],
  );
  return { getKey, renderItem };
}

/** The three views of a payload, kept in sight while the items scroll. */
function PayloadTabList({ view, itemCount }: { view: View; itemCount: number }) {
  return (
    <div className="sticky top-0 z-10 border-b border-zinc-200 bg-white/95 px-3 backdrop-blur dark:border-zinc-800 dark:bg-zinc-950/95">
      <TabList<View>
        label="Payload views"
        selected={view}
        tabs={[
          { id: "payload", label: `Payload · ${itemCount} items`, testId: "tab-payload" },
          { id: "raw", label: "Raw request", testId: "tab-raw" },
          { id: "diff", label: "Diff", testId: "tab-diff" },
        ]}
      />
    </div>
  );
}
