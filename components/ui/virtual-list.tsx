"use client";
// A small windowing list for long payloads (no virtualisation library is installed). Rows have variable heights:
// each rendered row is measured with a ResizeObserver and unmeasured rows use an estimate, so offsets converge
// as the reader scrolls. The scroll container is passed in, so the list can sit inside a panel that also holds
// other content. Short lists render every row (exact DOM, nothing to estimate).
import {
  type ReactNode,
  type RefObject,
  useCallback,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";

export interface VirtualListHandle {
  scrollToIndex(index: number): void;
}

export function VirtualList<T>({
  items,
  getKey,
  renderItem,
  scrollContainer,
  estimateHeight = 120,
  gap = 8,
  overscanPx = 800,
  virtualiseAbove = 60,
  handle,
  className,
  testId,
}: {
  items: readonly T[];
  getKey: (item: T, index: number) => string;
  renderItem: (item: T, index: number) => ReactNode;
  scrollContainer: RefObject<HTMLElement | null>;
  estimateHeight?: number;
  gap?: number;
  overscanPx?: number;
  virtualiseAbove?: number;
  handle?: RefObject<VirtualListHandle | null>;
  className?: string;
  testId?: string;
}) {
  const listRef = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<string, number>());
  const [measureVersion, setMeasureVersion] = useState(0);
  /** The viewport, held as an anchor: the first visible row and how far above the viewport's top it starts. */
  const [viewport, setViewport] = useState<{
    anchorIndex: number;
    anchorDelta: number;
    top: number;
    height: number;
    keys: readonly string[] | null;
  }>({ anchorIndex: 0, anchorDelta: 0, top: 0, height: 1_000, keys: null });
  const virtual = items.length > virtualiseAbove;

  const keys = useMemo(() => items.map((item, index) => getKey(item, index)), [items, getKey]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: measureVersion invalidates the measured heights
  const offsets = useMemo(() => {
    // Unmeasured rows are assumed to be as tall as the measured ones on average, so offsets far below the
    // viewport are close before those rows are ever rendered.
    let measuredTotal = 0;
    for (const height of heights.current.values()) measuredTotal += height;
    const guess = heights.current.size > 0 ? measuredTotal / heights.current.size : estimateHeight;
    const result = new Float64Array(keys.length + 1);
    for (let index = 0; index < keys.length; index += 1) {
      result[index + 1] = result[index] + (heights.current.get(keys[index]) ?? guess) + gap;
    }
    return result;
  }, [keys, estimateHeight, gap, measureVersion]);

  const listTopInContainer = useCallback(() => {
    const container = scrollContainer.current;
    const list = listRef.current;
    if (!container || !list) return 0;
    return list.getBoundingClientRect().top - container.getBoundingClientRect().top + container.scrollTop;
  }, [scrollContainer]);

  // Scroll anchoring: when measured heights move the rows, the view follows the anchor row, so what the reader
  // looks at does not jump, and rows on screen are never unmounted (a folded text keeps its state).
  const offsetsRef = useRef(offsets);
  const keysRef = useRef(keys);
  keysRef.current = keys;
  // An anchor taken on another list (a filter changed the rows) means nothing here: use the plain position.
  const anchored = viewport.keys === keys;
  const viewportTop = anchored
    ? offsets[Math.min(viewport.anchorIndex, items.length)] - viewport.anchorDelta
    : viewport.top;

  // biome-ignore lint/correctness/useExhaustiveDependencies: keys — a new list (a filter) is re-anchored at once
  useEffect(() => {
    const container = scrollContainer.current;
    if (!virtual || !container) return;
    let frame = 0;
    const update = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const top = container.scrollTop - listTopInContainer();
        const index = rowAt(offsetsRef.current, Math.max(0, top));
        setViewport({
          anchorIndex: index,
          anchorDelta: offsetsRef.current[index] - top,
          top,
          height: container.clientHeight,
          keys: keysRef.current,
        });
      });
    };
    update();
    container.addEventListener("scroll", update, { passive: true });
    const observer = new ResizeObserver(update);
    observer.observe(container);
    return () => {
      cancelAnimationFrame(frame);
      container.removeEventListener("scroll", update);
      observer.disconnect();
    };
  }, [virtual, scrollContainer, listTopInContainer, keys]);

  useLayoutEffect(() => {
    offsetsRef.current = offsets;
    const container = scrollContainer.current;
    if (!virtual || !container || !anchored || viewportTop < 0) return;
    const wanted = listTopInContainer() + viewportTop;
    if (Math.abs(container.scrollTop - wanted) > 1) container.scrollTop = wanted;
  }, [offsets, viewportTop, anchored, virtual, scrollContainer, listTopInContainer]);

  useImperativeHandle(
    handle,
    () => ({
      scrollToIndex(index: number) {
        const container = scrollContainer.current;
        if (!container) return;
        if (!virtual) {
          listRef.current?.children[index]?.scrollIntoView({ block: "center", behavior: "smooth" });
          return;
        }
        container.scrollTo({ top: listTopInContainer() + offsets[index] - 24, behavior: "auto" });
      },
    }),
    [virtual, offsets, scrollContainer, listTopInContainer],
  );

  // Measure rendered rows; a changed height bumps the version so offsets are recomputed once per frame.
  const observer = useRef<ResizeObserver | null>(null);
  useLayoutEffect(() => {
    if (!virtual) return;
    let frame = 0;
    observer.current = new ResizeObserver((entries) => {
      let changed = false;
      for (const entry of entries) {
        const target = entry.target as HTMLElement;
        const key = target.dataset.virtualKey;
        // A row that scrolled out is detached and reports 0: keep the height it had.
        if (!key || !target.isConnected) continue;
        const height = target.offsetHeight;
        if (height === 0) continue;
        if (heights.current.get(key) !== height) {
          heights.current.set(key, height);
          changed = true;
        }
      }
      if (changed) {
        cancelAnimationFrame(frame);
        frame = requestAnimationFrame(() => setMeasureVersion((version) => version + 1));
      }
    });
    return () => {
      cancelAnimationFrame(frame);
      observer.current?.disconnect();
      observer.current = null;
    };
  }, [virtual]);
  const measure = useCallback((element: HTMLDivElement | null) => {
    if (!element) return;
    const current = observer.current;
    current?.observe(element);
    return () => current?.unobserve(element);
  }, []);

  if (!virtual) {
    return (
      <div
        ref={listRef}
        className={className}
        style={{ display: "flex", flexDirection: "column", gap }}
        data-testid={testId}
      >
        {items.map((item, index) => (
          <div key={keys[index]}>{renderItem(item, index)}</div>
        ))}
      </div>
    );
  }

  const start = Math.max(0, rowAt(offsets, viewportTop - overscanPx) - 1);
  const end = Math.min(items.length, rowAt(offsets, viewportTop + viewport.height + overscanPx) + 1);
  const rows: ReactNode[] = [];
  for (let index = start; index < end; index += 1) {
    rows.push(
      <div
        key={keys[index]}
        ref={measure}
        data-virtual-key={keys[index]}
        style={{ position: "absolute", top: offsets[index], left: 0, right: 0 }}
      >
        {renderItem(items[index], index)}
      </div>,
    );
  }
  return (
    <div
      ref={listRef}
      className={className}
      style={{ position: "relative", height: offsets[items.length] }}
      data-testid={testId}
      data-virtualised="true"
    >
      {rows}
    </div>
  );
}

/** The index of the row that contains `position` (binary search over the offsets). */
function rowAt(offsets: Float64Array, position: number): number {
  let low = 0;
  let high = offsets.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (offsets[middle + 1] <= position) low = middle + 1;
    else high = middle;
  }
  return low;
}
