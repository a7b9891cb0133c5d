"use client";
// Highlighted JSON text. Small bodies render whole (wrapping); very long pretty bodies render as a windowed list
// of fixed-height lines, so a 100 000-token payload scrolls smoothly.
import { memo, type RefObject, useEffect, useState } from "react";
import { highlightCode } from "@/components/chat/markdown/highlight-code";

function Highlighted({ text }: { text: string }) {
  return (
    <>
      {highlightCode(text, "json").map((token, index) =>
        token.type === "plain" ? (
          token.text
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: tokens are positional
          <span key={index} className={`token-${token.type}`}>
            {token.text}
          </span>
        ),
      )}
    </>
  );
}

/** Lines above this count are windowed. */
const WINDOW_LINES_ABOVE = 1_500;
const LINE_HEIGHT = 20;

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
  const [range, setRange] = useState({ start: 0, end: 200 });
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  useEffect(() => {
    const container = scrollContainer.current;
    if (!container || !element) return;
    const update = () => {
      const top =
        container.scrollTop -
        (element.getBoundingClientRect().top - container.getBoundingClientRect().top + container.scrollTop);
      const start = Math.max(0, Math.floor(top / LINE_HEIGHT) - 50);
      setRange({
        start,
        end: Math.min(lines.length, start + Math.ceil(container.clientHeight / LINE_HEIGHT) + 100),
      });
    };
    update();
    container.addEventListener("scroll", update, { passive: true });
    return () => container.removeEventListener("scroll", update);
  }, [scrollContainer, element, lines.length]);

  return (
    <div
      className="code-surface overflow-x-auto"
      data-testid={testId}
      data-windowed="true"
      data-lines={lines.length}
    >
      <div
        ref={setElement}
        className="relative min-w-max"
        style={{ height: lines.length * LINE_HEIGHT + 24 }}
      >
        {lines.slice(range.start, range.end).map((line, offset) => {
          const number = range.start + offset;
          return (
            <div
              key={number}
              className="absolute right-0 left-0 flex px-3 whitespace-pre"
              style={{ top: 12 + number * LINE_HEIGHT, height: LINE_HEIGHT }}
            >
              <span className="mr-3 inline-block w-12 shrink-0 text-right text-zinc-400 select-none">
                {number + 1}
              </span>
              <span>
                <Highlighted text={line} />
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
