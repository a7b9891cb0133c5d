"use client";
// A windowed list for long payloads, by @tanstack/react-virtual: rows have variable heights and each rendered row
// is measured as it is laid out, so rows never overlap or leave gaps. The scroll container is passed in, so the
// list can sit inside a panel that also holds other content above it (the list's offset in it is the
// virtualizer's scroll margin). Short lists render every row (exact DOM, nothing to estimate).
import { useVirtualizer } from "@tanstack/react-virtual";
import {
  type ReactNode,
  type RefObject,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
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
  overscan = 6,
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
  /** Rows rendered beyond each edge of the viewport. */
  overscan?: number;
  virtualiseAbove?: number;
  handle?: RefObject<VirtualListHandle | null>;
  className?: string;
  testId?: string;
}) {
  const virtual = items.length > virtualiseAbove;
  const listRef = useRef<HTMLDivElement>(null);
  const scrollElement = useScrollElement(scrollContainer);
  const offset = useListOffset(listRef, scrollElement, virtual);
  const virtualizer = useVirtualizer({
    count: virtual ? items.length : 0,
    getScrollElement: () => scrollElement,
    estimateSize: () => estimateHeight,
    getItemKey: (index) => getKey(items[index], index),
    overscan,
    gap,
    scrollMargin: offset,
  });

  useImperativeHandle(
    handle,
    () => ({
      scrollToIndex(index: number) {
        if (virtual) virtualizer.scrollToIndex(index, { align: "start" });
        else listRef.current?.children[index]?.scrollIntoView({ block: "center", behavior: "smooth" });
      },
    }),
    [virtual, virtualizer],
  );

  if (!virtual) {
    return (
      <div
        ref={listRef}
        className={className}
        style={{ display: "flex", flexDirection: "column", gap }}
        data-testid={testId}
      >
        {items.map((item, index) => (
          <div key={getKey(item, index)}>{renderItem(item, index)}</div>
        ))}
      </div>
    );
  }

  const rows = virtualizer.getVirtualItems();
  return (
    <div
      ref={listRef}
      className={className}
      style={{ position: "relative", height: virtualizer.getTotalSize() }}
      data-testid={testId}
      data-virtualised="true"
    >
      {rows.map((row) => (
        <div
          key={row.key}
          ref={virtualizer.measureElement}
          data-index={row.index}
          style={{
            position: "absolute",
            top: 0,
            left: 0,
            right: 0,
            transform: `translateY(${row.start - offset}px)`,
          }}
        >
          {renderItem(items[row.index], row.index)}
        </div>
      ))}
    </div>
  );
}

/**
 * The scroll container as state: an ancestor's ref is attached after its children's layout effects run, so on
 * the first mount it is read once everything is committed, and the list renders again with it.
 */
export function useScrollElement(scrollContainer: RefObject<HTMLElement | null>): HTMLElement | null {
  const [element, setElement] = useState<HTMLElement | null>(null);
  useEffect(() => {
    if (scrollContainer.current !== element) setElement(scrollContainer.current);
  });
  return element;
}

/** Where the list starts inside its scroll container, kept current as the content above it changes size. */
function useListOffset(
  listRef: RefObject<HTMLElement | null>,
  container: HTMLElement | null,
  enabled: boolean,
): number {
  const [offset, setOffset] = useState(0);
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!enabled || !container || !list) return;
    const update = () => {
      const next =
        list.getBoundingClientRect().top - container.getBoundingClientRect().top + container.scrollTop;
      setOffset((current) => (Math.abs(current - next) < 0.5 ? current : next));
    };
    update();
    const observer = new ResizeObserver(update);
    // The content above the list lives in the container's subtree: any resize there may move the list.
    for (const child of Array.from(container.children)) observer.observe(child);
    observer.observe(container);
    return () => observer.disconnect();
  }, [enabled, listRef, container]);
  return offset;
}
