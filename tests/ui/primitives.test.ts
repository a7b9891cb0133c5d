// The UI primitives as the server renders them: the tab strip's roles, selection, roving tab stop and the link
// from the selected tab to its panel (Radix Tabs); icons as decorative 16px lucide drawings; an icon button
// named by its label. Keyboard and pointer behaviour is the e2e suite's (e2e/accessibility.spec.ts).
import { createElement, type FunctionComponent, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { IconButton } from "@/components/ui/icon-button";
import { BranchIcon, CloseIcon, StopIcon } from "@/components/ui/icons";
import { TabPanel, Tabs } from "@/components/ui/tabs";

/** `createElement` for a component whose props type requires children, given as the arguments React expects. */
function withChildren<Props extends { children: ReactNode }>(
  type: FunctionComponent<Props>,
  props: Omit<Props, "children">,
  children: ReactNode,
) {
  return createElement(type as FunctionComponent<Omit<Props, "children">>, props, children);
}

function parse(html: string): { tag: string; attributes: Record<string, string> }[] {
  return [...html.matchAll(/<([a-z0-9]+)((?:\s+[a-zA-Z-]+(?:="[^"]*")?)*)\s*\/?>/g)].map(([, tag, rest]) => ({
    tag,
    attributes: Object.fromEntries(
      [...rest.matchAll(/([a-zA-Z-]+)(?:="([^"]*)")?/g)].map(([, name, value]) => [name, value ?? ""]),
    ),
  }));
}

describe("Tabs", () => {
  const html = renderToStaticMarkup(
    createElement(
      Tabs<"payload" | "raw" | "diff">,
      {
        label: "Payload views",
        selected: "raw",
        onSelect: () => {},
        tabs: [
          { id: "payload", label: "Payload", testId: "tab-payload" },
          { id: "raw", label: "Raw request", testId: "tab-raw", attributes: { "data-status": "ok" } },
          { id: "diff", label: "Diff", testId: "tab-diff" },
        ],
      },
      withChildren(TabPanel, { value: "raw", testId: "panel" }, "the raw body"),
    ),
  );
  const elements = parse(html);
  const tabs = elements.filter((element) => element.attributes.role === "tab");

  test("a labelled tab list with one tab per definition, in order, carrying their test ids", () => {
    const list = elements.find((element) => element.attributes.role === "tablist");
    expect(list?.attributes["aria-label"]).toBe("Payload views");
    expect(tabs.map((tab) => tab.attributes["data-testid"])).toEqual(["tab-payload", "tab-raw", "tab-diff"]);
    expect(tabs.map((tab) => tab.tag)).toEqual(["button", "button", "button"]);
  });

  test.each([
    { testId: "tab-payload", selected: "false", tabindex: "-1", active: "false" },
    { testId: "tab-raw", selected: "true", tabindex: "0", active: "true" },
    { testId: "tab-diff", selected: "false", tabindex: "-1", active: "false" },
  ])("$testId: aria-selected $selected, tabindex $tabindex", ({ testId, selected, tabindex, active }) => {
    const tab = tabs.find((element) => element.attributes["data-testid"] === testId);
    expect(tab?.attributes["aria-selected"]).toBe(selected);
    expect(tab?.attributes.tabindex).toBe(tabindex);
    expect(tab?.attributes["data-active"]).toBe(active);
  });

  test("extra attributes reach the tab", () => {
    expect(tabs[1].attributes["data-status"]).toBe("ok");
  });

  test("the selected tab controls the panel, and the panel is labelled by it", () => {
    const panel = elements.find((element) => element.attributes.role === "tabpanel");
    expect(panel?.attributes["data-testid"]).toBe("panel");
    expect(panel?.attributes.id).toBeTruthy();
    expect(tabs[1].attributes["aria-controls"]).toBe(panel?.attributes.id);
    expect(panel?.attributes["aria-labelledby"]).toBe(tabs[1].attributes.id);
    expect(html).toContain("the raw body");
  });
});

describe("icons", () => {
  test.each([
    { name: "CloseIcon", icon: CloseIcon, props: {}, size: "16" },
    { name: "BranchIcon", icon: BranchIcon, props: {}, size: "16" },
    { name: "StopIcon at 14px", icon: StopIcon, props: { size: 14 }, size: "14" },
  ])("$name: an svg of the given size, hidden from screen readers", ({ icon, props, size }) => {
    const [svg] = parse(renderToStaticMarkup(createElement(icon, props)));
    expect(svg.tag).toBe("svg");
    expect(svg.attributes.width).toBe(size);
    expect(svg.attributes.height).toBe(size);
    expect(svg.attributes["aria-hidden"]).toBe("true");
    expect(svg.attributes.stroke).toBe(icon === StopIcon ? "none" : "currentColor");
  });
});

test("an icon button is named by its label and keeps its test id", () => {
  const html = renderToStaticMarkup(
    withChildren(IconButton, { label: "Close inspector", onClick: () => {}, testId: "inspector-close" }, "x"),
  );
  const [button] = parse(html);
  expect(button.tag).toBe("button");
  expect(button.attributes["aria-label"]).toBe("Close inspector");
  expect(button.attributes["data-testid"]).toBe("inspector-close");
  expect(button.attributes.type).toBe("button");
});
