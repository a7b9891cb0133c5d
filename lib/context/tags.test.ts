import { describe, expect, it } from "vitest";
import { ITEM_TAGS } from "@/lib/domain/types";
import { TAG_COLOURS, TAG_DESCRIPTIONS } from "./tags";
import { plural, traceEvent, traceWarning } from "./trace";

describe("tags and trace helpers", () => {
  it("every tag has a one-line description and a colour", () => {
    for (const tag of ITEM_TAGS) {
      expect(TAG_DESCRIPTIONS[tag]).toMatch(/^[^\n]{10,120}$/);
      expect(TAG_COLOURS[tag]).toMatch(/^[a-z]+$/);
    }
    expect(Object.keys(TAG_DESCRIPTIONS).sort()).toEqual([...ITEM_TAGS].sort());
    expect(new Set(Object.values(TAG_COLOURS)).size).toBe(ITEM_TAGS.length);
  });

  it("trace events leave out unset fields", () => {
    expect(traceEvent("window", "windowed", "why")).toEqual({
      stage: "window",
      action: "windowed",
      reason: "why",
    });
    expect(Object.keys(traceEvent("window", "x", "y", { itemIds: ["a"], details: undefined }))).toEqual([
      "stage",
      "action",
      "reason",
      "itemIds",
    ]);
    expect(traceWarning("artifacts", "missing", "gone")).toEqual({
      stage: "artifacts",
      action: "missing",
      reason: "gone",
      level: "warning",
    });
    expect([plural(1, "turn"), plural(2, "turn"), plural(2, "memory", "memories")]).toEqual([
      "1 turn",
      "2 turns",
      "2 memories",
    ]);
  });
});
