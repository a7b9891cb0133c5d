"use client";
// The inspector's left edge on large screens: drag it, or focus it and use the arrow keys, to change the width.
import { type KeyboardEvent, type PointerEvent, useRef } from "react";
import { INSPECTOR_MIN_WIDTH } from "./use-inspector-width";

const KEY_STEP = 32;

export function ResizeHandle({
  width,
  maxWidth,
  onResize,
}: {
  width: number;
  maxWidth: number;
  onResize: (width: number, options?: { persist?: boolean }) => void;
}) {
  const drag = useRef<{ startX: number; startWidth: number; last: number } | null>(null);

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { startX: event.clientX, startWidth: width, last: width };
    event.preventDefault();
  }
  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    if (!drag.current) return;
    // The panel sits at the right edge: moving the handle left widens it.
    drag.current.last = drag.current.startWidth + (drag.current.startX - event.clientX);
    onResize(drag.current.last, { persist: false });
  }
  function onPointerUp() {
    if (!drag.current) return;
    onResize(drag.current.last);
    drag.current = null;
  }
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const next =
      event.key === "ArrowLeft"
        ? width + KEY_STEP
        : event.key === "ArrowRight"
          ? width - KEY_STEP
          : event.key === "Home"
            ? INSPECTOR_MIN_WIDTH
            : event.key === "End"
              ? maxWidth
              : null;
    if (next === null) return;
    onResize(next);
    event.preventDefault();
  }

  return (
    // biome-ignore lint/a11y/useSemanticElements: a focusable window splitter is role=separator by definition
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the inspector"
      aria-valuenow={width}
      aria-valuemin={INSPECTOR_MIN_WIDTH}
      aria-valuemax={maxWidth}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
      className="group absolute inset-y-0 -left-1.5 z-10 hidden w-3 cursor-col-resize touch-none lg:block"
      data-testid="inspector-resize"
    >
      <span className="mx-auto block h-full w-0.5 bg-transparent group-hover:bg-indigo-400 group-focus-visible:bg-indigo-500" />
    </div>
  );
}
