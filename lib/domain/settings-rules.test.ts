import { describe, expect, test } from "vitest";
import { defaultSettings, type ResolvedSettings, resolveSettings, type SettingsOverride } from "./settings";
import { settingsConflicts } from "./settings-rules";

const settingsWith = (override: SettingsOverride): ResolvedSettings =>
  resolveSettings(defaultSettings(), override);

describe("settings that contradict each other", () => {
  test("the defaults agree", () => {
    expect(settingsConflicts(defaultSettings())).toEqual([]);
  });

  const cases: Array<{
    name: string;
    override: SettingsOverride;
    fields: [string, string] | null;
    says?: string;
  }> = [
    {
      name: "a fetch limit of 20 cannot hold 15 kept turns",
      override: { history: { messageFetchLimit: 20 }, summary: { keepRecentTurns: 15 } },
      fields: ["history.messageFetchLimit", "summary.keepRecentTurns"],
      says: "history.messageFetchLimit (20) cannot hold the 15 turns summary.keepRecentTurns keeps verbatim: every turn would be summarised again. Load at least 32 messages or keep fewer turns.",
    },
    {
      name: "a fetch limit of exactly 2 × kept + 2 holds them",
      override: { history: { messageFetchLimit: 32 }, summary: { keepRecentTurns: 15 } },
      fields: null,
    },
    {
      name: "a small fetch limit is fine when only Compact summarises",
      override: { history: { messageFetchLimit: 4 }, summary: { mode: "manual" } },
      fields: null,
    },
    {
      name: "turn mode due again at once",
      override: { summary: { mode: "turn", turnThreshold: 10, keepRecentTurns: 10 } },
      fields: ["summary.turnThreshold", "summary.keepRecentTurns"],
      says: "summary.turnThreshold (10) must be more than summary.keepRecentTurns (10): a summary that keeps that many turns would be due again at once.",
    },
    {
      name: "the turn threshold does not matter in token mode",
      override: { summary: { mode: "token", turnThreshold: 5, keepRecentTurns: 10 } },
      fields: null,
    },
    {
      name: "an item cap below the kept turns",
      override: { history: { maxItems: 20 }, summary: { keepRecentTurns: 15 } },
      fields: ["history.maxItems", "summary.keepRecentTurns"],
      says: "history.maxItems (20) would cut the 15 turns summary.keepRecentTurns keeps verbatim: allow at least 30 items or keep fewer turns.",
    },
    {
      name: "pruning that keeps as much as it prunes",
      override: { tools: { pruneMinChars: 300, pruneHead: 200, pruneTail: 100 } },
      fields: ["tools.pruneHead", "tools.pruneMinChars"],
      says: "tools.pruneHead and tools.pruneTail keep 300 characters, not fewer than tools.pruneMinChars (300): a pruned output would be no shorter. Keep fewer characters or prune only longer outputs.",
    },
    {
      name: "a thinking budget that eats the reply",
      override: { thinking: { enabled: true, budgetTokens: 4_096 }, budget: { reservedOutputTokens: 4_096 } },
      fields: ["thinking.budgetTokens", "budget.reservedOutputTokens"],
      says: "thinking.budgetTokens (4096) must be less than budget.reservedOutputTokens (4096): thinking counts against the reply's tokens and would leave none for the answer.",
    },
    {
      name: "the same budget with thinking off",
      override: {
        thinking: { enabled: false, budgetTokens: 4_096 },
        budget: { reservedOutputTokens: 4_096 },
      },
      fields: null,
    },
  ];

  test.each(cases)("$name", ({ override, fields, says }) => {
    const conflicts = settingsConflicts(settingsWith(override));
    if (fields === null) expect(conflicts).toEqual([]);
    else expect(conflicts).toEqual([{ fields, message: says }]);
  });

  test("each conflict's sentence names both of its keys", () => {
    const all = settingsConflicts(
      settingsWith({
        history: { messageFetchLimit: 10, maxItems: 10 },
        summary: { mode: "turn", turnThreshold: 5, keepRecentTurns: 10 },
        tools: { pruneMinChars: 10, pruneHead: 10, pruneTail: 0 },
        thinking: { enabled: true, budgetTokens: 100 },
        budget: { reservedOutputTokens: 50 },
      }),
    );
    expect(all).toHaveLength(5);
    for (const conflict of all)
      for (const field of conflict.fields) expect(conflict.message).toContain(field);
  });
});
