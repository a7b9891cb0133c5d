"use client";
// Tab strips and their panels on Radix's Tabs: a roving tab stop (only the selected tab is in the Tab order),
// ArrowLeft/ArrowRight move to the previous/next tab and Home/End to the first/last, selecting it as focus lands;
// the selected tab controls its panel and the panel is labelled by its tab.
import * as RadixTabs from "@radix-ui/react-tabs";
import type { ReactNode } from "react";

export interface TabDefinition<Id extends string> {
  id: Id;
  label: ReactNode;
  testId?: string;
  attributes?: Record<string, string | number | undefined>;
}

export interface TabStripProps<Id extends string> {
  tabs: TabDefinition<Id>[];
  selected: Id;
  onSelect: (id: Id) => void;
  label: string;
  className?: string;
  variant?: "underline" | "pill";
  /** Wrap onto more lines instead of scrolling sideways, so no tab is ever out of sight. */
  wrap?: boolean;
}

/** A tab strip, then `children`: the selected tab's `TabPanel`, with whatever else belongs to the group. */
export function Tabs<Id extends string>({
  selected,
  onSelect,
  groupClassName,
  children,
  ...strip
}: TabStripProps<Id> & { groupClassName?: string; children?: ReactNode }) {
  return (
    <TabGroup selected={selected} onSelect={onSelect} className={groupClassName}>
      <TabList selected={selected} {...strip} />
      {children}
    </TabGroup>
  );
}

/** Holds a `TabList` and its `TabPanel`s wherever they sit inside it (a sticky strip above a scrolling panel). */
export function TabGroup<Id extends string>({
  selected,
  onSelect,
  className,
  children,
}: {
  selected: Id;
  onSelect: (id: Id) => void;
  className?: string;
  children: ReactNode;
}) {
  return (
    <RadixTabs.Root
      value={selected}
      onValueChange={(value) => onSelect(value as Id)}
      activationMode="automatic"
      className={className}
    >
      {children}
    </RadixTabs.Root>
  );
}

export function TabList<Id extends string>({
  tabs,
  selected,
  label,
  className = "",
  variant = "underline",
  wrap = false,
}: Omit<TabStripProps<Id>, "onSelect">) {
  return (
    <RadixTabs.List
      aria-label={label}
      className={`flex gap-1 ${wrap ? "flex-wrap" : "overflow-x-auto"} ${className}`}
    >
      {tabs.map((tab) => {
        const active = tab.id === selected;
        return (
          <RadixTabs.Trigger
            key={tab.id}
            value={tab.id}
            // The selected tab is the strip's Tab stop from the start, not only once a tab has had focus.
            tabIndex={active ? 0 : -1}
            data-testid={tab.testId}
            data-active={active}
            {...tab.attributes}
            className={variant === "underline" ? "tab-underline" : "tab-pill"}
          >
            {tab.label}
          </RadixTabs.Trigger>
        );
      })}
    </RadixTabs.List>
  );
}

/** What the tab `value` shows; rendered only while that tab is selected. */
export function TabPanel({
  value,
  className,
  testId,
  children,
}: {
  value: string;
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <RadixTabs.Content value={value} className={className} data-testid={testId}>
      {children}
    </RadixTabs.Content>
  );
}
