"use client";
// Highlighted JSON text. Small bodies render whole (wrapping); very long ones render as a windowed list of lines
// by @tanstack/react-virtual inside the inspector's scroll container, so a 100 000-token payload scrolls smoothly.
import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, type RefObject, useLayoutEffect, useRef, useState } from "react";
import { HighlightedCode } from "@/components/chat/markdown/highlighted-code";
import { useScrollElement } from "@/components/ui/virtual-list";

/**
 * Longer texts render plain: colouring hundreds of kilobytes on the main thread costs more than it helps.
 * The exact-bytes view must show every byte once, whatever the size.
 */
const HIGHLIGHT_UP_TO = 50_000;

function Highlighted({ text }: { text: string }) {
  if (text.length > HIGHLIGHT_UP_TO) return <>{text}</>;
  return <HighlightedCode code={text} language="json" />;
}

/** Lines above this count are windowed. */
const WINDOW_LINES_ABOVE = 1_500;
const LINE_HEIGHT = 20;
const PADDING = 12;

export const JsonText = memo(function JsonText({
  text,
  scrollContainer,
  testId,
}: {
  text: string;
  scrollContainer: RefObject<HTMLElement | null>;
  testId: string;
}) {
  const lines = text.split("\n");
  if (lines.length <= WINDOW_LINES_ABOVE) {
    return (
      <pre className="code-surface overflow-x-auto p-3 break-all whitespace-pre-wrap" data-testid={testId}>
        <Highlighted text={text} />
      </pre>
    );
  }
  return <WindowedLines lines={lines} scrollContainer={scrollContainer} testId={testId} />;
});

function WindowedLines({
  lines,
  scrollContainer,
  testId,
}: {
  lines: string[];
  scrollContainer: RefObject<HTMLElement | null>;
  testId: string;
}) {
  const listRef = useRef<HTMLDivElement>(null);
  const container = useScrollElement(scrollContainer);
  // Where the lines start inside the scroll container (the request's header and buttons sit above them).
  const [offset, setOffset] = useState(0);
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!container || !list) return;
    setOffset(list.getBoundingClientRect().top - container.getBoundingClientRect().top + container.scrollTop);
  }, [container]);
  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => container,
    estimateSize: () => LINE_HEIGHT,
    overscan: 40,
    scrollMargin: offset + PADDING,
  });

  return (
    <div
      className="code-surface overflow-x-auto"
      data-testid={testId}
      data-windowed="true"
      data-lines={lines.length}
    >
      <div
        ref={listRef}
        className="relative min-w-max"
        style={{ height: virtualizer.getTotalSize() + 2 * PADDING }}
      >
        {virtualizer.getVirtualItems().map((row) => (
          <div
            key={row.key}
            data-index={row.index}
            ref={virtualizer.measureElement}
            className="absolute right-0 left-0 flex px-3 whitespace-pre"
            style={{
              top: PADDING,
              transform: `translateY(${row.start - offset - PADDING}px)`,
              minHeight: LINE_HEIGHT,
            }}
          >
            <span className="mr-3 inline-block w-12 shrink-0 text-right text-zinc-500 select-none dark:text-zinc-400">
              {row.index + 1}
            </span>
            <span>
              <Highlighted text={lines[row.index]} />
            </span>
          </div>
        ))}
      </div>
    </div>
  );
}
