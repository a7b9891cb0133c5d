"use client";
// Accessible tab strip: buttons with role=tab and a roving tabindex (only the selected tab is in the Tab order);
// ArrowLeft/ArrowRight move to the previous/next tab, Home/End to the first/last, selecting and focusing it.
import { type KeyboardEvent, type ReactNode, useRef } from "react";

export interface TabDefinition<Id extends string> {
  id: Id;
  label: ReactNode;
  testId?: string;
  attributes?: Record<string, string | number | undefined>;
}

const STEP: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (index, count) => (index + 1) % count,
  ArrowLeft: (index, count) => (index + count - 1) % count,
  Home: () => 0,
  End: (_, count) => count - 1,
};

export function Tabs<Id extends string>({
  tabs,
  selected,
  onSelect,
  label,
  className = "",
  variant = "underline",
  wrap = false,
}: {
  tabs: TabDefinition<Id>[];
  selected: Id;
  onSelect: (id: Id) => void;
  label: string;
  className?: string;
  variant?: "underline" | "pill";
  /** Wrap onto more lines instead of scrolling sideways, so no tab is ever out of sight. */
  wrap?: boolean;
}) {
  const buttons = useRef(new Map<Id, HTMLButtonElement>());

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const step = STEP[event.key];
    if (!step || tabs.length === 0) return;
    const index = Math.max(
      0,
      tabs.findIndex((tab) => tab.id === selected),
    );
    const next = tabs[step(index, tabs.length)];
    onSelect(next.id);
    buttons.current.get(next.id)?.focus();
    event.preventDefault();
  }

  return (
    <div
      role="tablist"
      aria-label={label}
      className={`flex gap-1 ${wrap ? "flex-wrap" : "overflow-x-auto"} ${className}`}
      onKeyDown={onKeyDown}
    >
      {tabs.map((tab) => {
        const active = tab.id === selected;
        return (
          <button
            key={tab.id}
            ref={(element) => {
              if (element) buttons.current.set(tab.id, element);
              else buttons.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            aria-selected={active}
            tabIndex={active ? 0 : -1}
            onClick={() => onSelect(tab.id)}
            data-testid={tab.testId}
            data-active={active}
            {...tab.attributes}
            className={variant === "underline" ? "tab-underline" : "tab-pill"}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}
