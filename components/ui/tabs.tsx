"use client";
// Accessible tab strip: buttons with role=tab, arrow keys move between them.
import type { KeyboardEvent, ReactNode } from "react";

export interface TabDefinition<Id extends string> {
  id: Id;
  label: ReactNode;
  testId?: string;
  attributes?: Record<string, string | number | undefined>;
}

export function Tabs<Id extends string>({
  tabs,
  selected,
  onSelect,
  label,
  className = "",
  variant = "underline",
}: {
  tabs: TabDefinition<Id>[];
  selected: Id;
  onSelect: (id: Id) => void;
  label: string;
  className?: string;
  variant?: "underline" | "pill";
}) {
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
    const index = tabs.findIndex((tab) => tab.id === selected);
    const next = tabs[(index + (event.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length];
    onSelect(next.id);
    event.preventDefault();
  }
  return (
    <div
      role="tablist"
      aria-label={label}
      className={`flex gap-1 overflow-x-auto ${className}`}
      onKeyDown={onKeyDown}
    >
      {tabs.map((tab) => {
        const active = tab.id === selected;
        return (
          <button
            key={tab.id}
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
