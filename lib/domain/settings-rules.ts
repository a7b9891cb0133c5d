// Settings that are each in range can still contradict each other: a fetch limit that cannot hold the turns a
// summary keeps verbatim makes every turn summarise again. One rule table, used by the admin form (as a zod
// refinement of the document it edits) and by every route that stores settings (on the settings a conversation
// would resolve to), so the form and the API refuse the same things with the same sentence.

import type { z } from "zod";
import { type ResolvedSettings, settingsSchema } from "./settings";

export interface SettingsConflict {
  /** The two keys that contradict each other, the first one marked on the form. */
  fields: [string, string];
  /** One sentence naming both keys and their values, and what would hold. */
  message: string;
}

interface SettingsRule {
  fields: [string, string];
  /** The sentence when the rule is broken, null when it holds. */
  check(settings: ResolvedSettings): string | null;
}

/** Room for the turns kept verbatim (a user message and a reply each) and the new exchange. */
export function fetchLimitFloor(keepRecentTurns: number): number {
  return 2 * keepRecentTurns + 2;
}

export const SETTINGS_RULES: readonly SettingsRule[] = [
  {
    fields: ["history.messageFetchLimit", "summary.keepRecentTurns"],
    check({ history, summary }) {
      const floor = fetchLimitFloor(summary.keepRecentTurns);
      if (summary.mode === "manual" || history.messageFetchLimit >= floor) return null;
      return `history.messageFetchLimit (${history.messageFetchLimit}) cannot hold the ${summary.keepRecentTurns} turns summary.keepRecentTurns keeps verbatim: every turn would be summarised again. Load at least ${floor} messages or keep fewer turns.`;
    },
  },
  {
    fields: ["summary.turnThreshold", "summary.keepRecentTurns"],
    check({ summary }) {
      if (summary.mode !== "turn" || summary.turnThreshold > summary.keepRecentTurns) return null;
      return `summary.turnThreshold (${summary.turnThreshold}) must be more than summary.keepRecentTurns (${summary.keepRecentTurns}): a summary that keeps that many turns would be due again at once.`;
    },
  },
  {
    fields: ["history.maxItems", "summary.keepRecentTurns"],
    check({ history, summary }) {
      const needed = 2 * summary.keepRecentTurns;
      if (history.maxItems === null || history.maxItems >= needed) return null;
      return `history.maxItems (${history.maxItems}) would cut the ${summary.keepRecentTurns} turns summary.keepRecentTurns keeps verbatim: allow at least ${needed} items or keep fewer turns.`;
    },
  },
  {
    fields: ["tools.pruneHead", "tools.pruneMinChars"],
    check({ tools }) {
      const kept = tools.pruneHead + tools.pruneTail;
      if (kept < tools.pruneMinChars) return null;
      return `tools.pruneHead and tools.pruneTail keep ${kept} characters, not fewer than tools.pruneMinChars (${tools.pruneMinChars}): a pruned output would be no shorter. Keep fewer characters or prune only longer outputs.`;
    },
  },
  {
    fields: ["thinking.budgetTokens", "budget.reservedOutputTokens"],
    check({ thinking, budget }) {
      const reserved = budget.reservedOutputTokens;
      if (!thinking.enabled || reserved === null || thinking.budgetTokens < reserved) return null;
      return `thinking.budgetTokens (${thinking.budgetTokens}) must be less than budget.reservedOutputTokens (${reserved}): thinking counts against the reply's tokens and would leave none for the answer.`;
    },
  },
];

/** Every rule the settings break, in table order. */
export function settingsConflicts(settings: ResolvedSettings): SettingsConflict[] {
  return SETTINGS_RULES.flatMap((rule) => {
    const message = rule.check(settings);
    return message ? [{ fields: rule.fields, message }] : [];
  });
}

/**
 * For `superRefine` on a whole settings document: each conflict marks its first field with its sentence. zod runs
 * the refinement even when a key is out of range; the rules then wait, since such a key is marked already and a
 * conflict with it would only repeat it.
 */
export function addSettingsConflictIssues(settings: ResolvedSettings, context: z.RefinementCtx): void {
  if (!settingsSchema.safeParse(settings).success) return;
  for (const conflict of settingsConflicts(settings)) {
    context.addIssue({ code: "custom", path: conflict.fields[0].split("."), message: conflict.message });
  }
}
