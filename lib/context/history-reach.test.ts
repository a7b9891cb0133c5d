import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type {
  AttemptBudget,
  BuildInput,
  ModelDescriptor,
  PersonaUserBlock,
  StoredMessage,
} from "@/lib/domain/types";
import { blueprintArbitrary, materialise } from "@/tests/context/conversation-arbitrary";
import {
  ADA,
  blockRecord,
  MALLORY,
  modelDescriptor,
  NOW,
  PERSONA,
  personaMessage,
  settingsWith,
  userMessage,
} from "@/tests/context/fixtures";
import { buildContext } from "./build-context";
import { attemptBudgetsFor, cutUnreachableHistory, JOIN_SLACK_TOKENS } from "./history-reach";
import { elementAt } from "./indexing";
import { ContextBudgetError, type ResolvedContext, resolveForModel } from "./resolve-for-model";

/** A message whose cached estimate count is `tokens`. */
function counted(message: StoredMessage, tokens: number): StoredMessage {
  return { ...message, tokenCounts: { estimate: tokens } };
}

/** u1 a2 u3 a4 … with every message costing `tokens` (estimate). */
function dialogue(count: number, tokens: number): StoredMessage[] {
  const messages: StoredMessage[] = [];
  for (let seq = 1; seq <= count; seq++)
    messages.push(
      counted(seq % 2 === 1 ? userMessage(seq, `u${seq}`) : personaMessage(seq, `a${seq}`), tokens),
    );
  return messages;
}

const budget = (usableTokens: number): AttemptBudget => ({
  tokenizer: "estimate",
  usableTokens,
  strictAlternation: false,
});
/** Depth 0: a note would go at the very end, so the cut needs only one run of messages left. */
const SETTINGS = settingsWith({ contextNote: { depth: 0 } });

function cut(
  history: StoredMessage[],
  budgets: AttemptBudget[] | null,
  extra: Partial<{ impersonateUserId: string; blocks: PersonaUserBlock[] }> = {},
  settings = SETTINGS,
) {
  return cutUnreachableHistory({
    history,
    budgets,
    personaId: PERSONA.id,
    blocks: [],
    now: NOW,
    settings,
    ...extra,
  });
}

describe("cutUnreachableHistory", () => {
  // Each message bounds at 100 − slack = 98 tokens. Walking back from u9 (the newest, a user turn start after a8):
  // the bound from index k on is 98 × (9 − k) tokens.
  const history = dialogue(9, 100);

  it.each([
    // usable tokens → first kept seq (null: nothing cut)
    { usable: 10_000, firstKept: null, reason: "everything fits the bound" },
    { usable: 98 * 9, firstKept: null, reason: "the bound never exceeds the budget" },
    { usable: 98 * 3 - 1, firstKept: 7, reason: "u7..u9 (3 messages) already exceed it: u7 starts the turn" },
    { usable: 98 * 2, firstKept: 7, reason: "a8 + u9 = 196 is not over 196; u7.. is: cut before u7" },
    { usable: 98 * 1 - 1, firstKept: 9, reason: "u9 alone exceeds it" },
  ])("usable $usable: $reason", ({ usable, firstKept }) => {
    const result = cut(history, [budget(usable)]);
    if (firstKept === null) {
      expect(result.value.history).toBe(history);
      expect(result.trace).toEqual([]);
      return;
    }
    expect(result.value.history[0]?.seq).toBe(firstKept);
    expect(result.value.history.at(-1)?.seq).toBe(9);
    expect(result.trace).toEqual([
      expect.objectContaining({
        stage: "budget",
        action: "not-built",
        counts: { messages: firstKept - 1, keptMessages: 10 - firstKept, usableTokens: usable },
        details: { throughSeq: firstKept - 1 },
      }),
    ]);
  });

  it("cuts only at a turn start: a user-side message right after the assistant's", () => {
    // u1 a2 u3 u4 a5 u6: with the bound over the budget from u4 on, u4 is no turn start (u3 is user-side), so the
    // cut moves back to u3.
    const messages = [
      counted(userMessage(1, "u1"), 100),
      counted(personaMessage(2, "a2"), 100),
      counted(userMessage(3, "u3"), 100),
      counted(userMessage(4, "u4"), 100),
      counted(personaMessage(5, "a5"), 100),
      counted(userMessage(6, "u6"), 100),
    ];
    const result = cut(messages, [budget(98 * 3 - 1)]);
    expect(result.value.history.map((message) => message.seq)).toEqual([3, 4, 5, 6]);
  });

  it("needs every budget exceeded: a fallback with a bigger window keeps what it could send", () => {
    expect(cut(history, [budget(100), budget(10_000)]).value.history).toBe(history);
    expect(cut(history, [budget(100), budget(150)]).value.history[0]?.seq).toBe(7);
  });

  it("counts a tokenizer's own cache: a message cached only for another tokenizer bounds at 0", () => {
    const mixed = history.map((message) => ({ ...message, tokenCounts: { o200k_base: 100 } }));
    expect(cut(mixed, [budget(10)]).value.history).toBe(mixed);
    expect(
      cut(mixed, [{ tokenizer: "o200k_base", usableTokens: 10, strictAlternation: false }]).value.history[0]
        ?.seq,
    ).toBe(9);
  });

  it("does nothing without budgets (the caller gave none)", () => {
    expect(cut(history, null).value.history).toBe(history);
    expect(cut(history, []).value.history).toBe(history);
  });

  it("leaves the slack out of each message's bound", () => {
    expect(JOIN_SLACK_TOKENS).toBe(2);
    // u9 bounds at exactly 98: a budget of 98 is not exceeded by it, 97 is.
    expect(cut(history, [budget(98)]).value.history[0]?.seq).toBe(7);
    expect(cut(history, [budget(97)]).value.history[0]?.seq).toBe(9);
  });

  it("counts a blocked user's messages as 0 (the blocks stage turns them into one short notice)", () => {
    const messages = [
      counted(userMessage(1, "u1"), 100),
      counted(personaMessage(2, "a2"), 100),
      counted(userMessage(3, "spam", { author: MALLORY }), 5_000),
      counted(personaMessage(4, "a4"), 100),
      counted(userMessage(5, "u5"), 100),
    ];
    const result = cut(messages, [budget(200)], { blocks: [blockRecord()] });
    // At the turn start u3 the bound is a4 + u5 = 196 (Mallory's 5 000 tokens count 0): not over 200, no cut.
    expect(result.value.history).toBe(messages);
    const unblocked = cut(messages, [budget(200)]);
    expect(unblocked.value.history.map((message) => message.seq)).toEqual([3, 4, 5]);
  });

  it("tells the blocks stage which cut messages of a blocked user a kept message replies to", () => {
    const messages = [
      counted(userMessage(1, "spam", { author: MALLORY }), 100),
      counted(userMessage(2, "ok"), 100),
      counted(personaMessage(3, "a3"), 100),
      counted(userMessage(4, "re: spam", { replyToMessageId: "m1" }), 100),
      counted(personaMessage(5, "a5"), 100),
      counted(userMessage(6, "re: ok", { replyToMessageId: "m2" }), 100),
    ];
    const result = cut(messages, [budget(250)], { blocks: [blockRecord()] });
    expect(result.value.history[0]?.seq).toBe(4);
    expect([...(result.value.hiddenMessageIds ?? [])]).toEqual(["m1"]);
  });

  it("follows impersonation: the impersonated user's messages are the assistant side", () => {
    // Generating as Ada: Ada → assistant, Aria → user. Turn starts are Aria's messages after Ada's.
    // From a8 on (a turn start: after u7) the bound is 196, over 195.
    const result = cut(history, [budget(98 * 2 - 1)], { impersonateUserId: ADA.userId });
    expect(result.value.history[0]?.seq).toBe(8);
    expect(cut(history, [budget(98 * 2 - 1)]).value.history[0]?.seq).toBe(7);
  });

  it("leaves more runs of messages than the note depth, so a note never moves to the top", () => {
    // Depth 2: at least 3 runs must stay. u9 alone (1 run) and a8 u9 (2) are not enough; u7 a8 u9 is.
    const result = cut(history, [budget(50)], {}, settingsWith({ contextNote: { depth: 2 } }));
    expect(result.value.history.map((message) => message.seq)).toEqual([7, 8, 9]);
    // A run of blank messages becomes no item and does not count.
    const blankEnd = [...history.slice(0, 8), counted(userMessage(9, "   "), 100)];
    const blank = cut(blankEnd, [budget(50)], {}, settingsWith({ contextNote: { depth: 2 } }));
    expect(blank.value.history[0]?.seq).toBe(5);
  });

  it("does not cut for a strict-alternation model or with a history window", () => {
    expect(cut(history, [{ ...budget(50), strictAlternation: true }]).value.history).toBe(history);
    expect(
      cut(history, [budget(50)], {}, settingsWith({ contextNote: { depth: 0 }, history: { maxItems: 50 } }))
        .value.history,
    ).toBe(history);
  });

  it("attemptBudgetsFor gives each model's usable tokens under its tokenizer", () => {
    const settings = settingsWith({ budget: { safetyMarginPercent: 10 } });
    const budgets = attemptBudgetsFor(
      [
        modelDescriptor({ contextWindow: 10_000, maxOutputTokens: 1_000, tokenizer: "o200k_base" }),
        modelDescriptor({ contextWindow: 1_000, maxOutputTokens: 100 }),
      ],
      settings,
    );
    expect(budgets.map((entry) => entry.tokenizer)).toEqual(["o200k_base", "estimate"]);
    expect(budgets[0]?.usableTokens).toBeGreaterThan(elementAt(budgets, 1).usableTokens);
    expect(budgets[0]?.usableTokens).toBeLessThanOrEqual(9_000);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The cut changes no payload: every attempt resolves to the same items and request as a build of everything.

type Outcome = ResolvedContext | ContextBudgetError;

function attempt(input: BuildInput, model: ModelDescriptor, enabledToolNames: string[]): Outcome {
  try {
    return resolveForModel(buildContext(input, { tokenizer: model.tokenizer }), model, { enabledToolNames });
  } catch (error) {
    if (error instanceof ContextBudgetError) return error;
    throw error;
  }
}

/**
 * What is sent (items and request), or that the attempt cannot be sent. A budget error's `requiredTokens` can be
 * lower with the cut: a strict model's conversation-start turn, pinned, stands before the oldest assistant turn
 * of a full build even when that turn is dropped; the cut history opens with a user turn and needs none.
 */
function payload(outcome: Outcome): string {
  if (outcome instanceof ContextBudgetError) {
    const { requiredTokens: _required, ...details } = outcome.details;
    return JSON.stringify({ error: details });
  }
  return JSON.stringify({
    items: outcome.items,
    request: outcome.request,
    totalTokens: outcome.budget.totalTokens,
  });
}

/** How much of the history's cached tokens a model's window holds: mostly less than all of it, so cuts happen. */
const windowShare = fc.oneof(
  { weight: 4, arbitrary: fc.double({ min: 0.05, max: 1, noNaN: true }) },
  { weight: 1, arbitrary: fc.double({ min: 1, max: 3, noNaN: true }) },
);

const cutFriendly = fc.record({
  noWindow: fc.oneof(
    { weight: 3, arbitrary: fc.constant(true) },
    { weight: 1, arbitrary: fc.constant(false) },
  ),
  /** A non-strict model (strict ones never cut). */
  lenient: fc.oneof(
    { weight: 3, arbitrary: fc.constant(true) },
    { weight: 1, arbitrary: fc.constant(false) },
  ),
  noteDepth: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 3 })),
});

/** The model with a window sized to a share of the history's cached tokens (plus room for the output reserve). */
function fittedTo(
  model: ModelDescriptor,
  input: BuildInput,
  share: number,
  lenient: boolean,
): ModelDescriptor {
  let history = 0;
  for (const message of input.messages) history += message.tokenCounts?.[model.tokenizer] ?? 0;
  const window = Math.max(200, Math.round(history * share) + 400);
  return {
    ...model,
    capabilities: lenient ? { ...model.capabilities, strictAlternation: false } : model.capabilities,
    contextWindow: window,
    maxOutputTokens: Math.max(16, Math.floor(window / 10)),
  };
}

describe("history-reach changes no payload (property)", () => {
  it("every attempt sends the same with the cut as without it", () => {
    let cuts = 0;
    let runs = 0;
    fc.assert(
      fc.property(
        blueprintArbitrary,
        windowShare,
        windowShare,
        cutFriendly,
        (blueprint, primaryShare, fallbackShare, friendly) => {
          const conversation = materialise(blueprint);
          const { enabledToolNames } = conversation;
          // Mostly the settings and models where a cut can happen; the rest checks that none happens where it must not.
          const settings = conversation.input.settings;
          const input: BuildInput = {
            ...conversation.input,
            settings: {
              ...settings,
              history: {
                ...settings.history,
                maxItems: friendly.noWindow ? null : settings.history.maxItems,
              },
              contextNote: {
                ...settings.contextNote,
                depth: friendly.noteDepth ?? settings.contextNote.depth,
              },
            },
          };
          const models = [
            fittedTo(conversation.primary, input, primaryShare, friendly.lenient),
            fittedTo(conversation.fallback, input, fallbackShare, friendly.lenient),
          ];
          const withBudgets: BuildInput = {
            ...input,
            attemptBudgets: attemptBudgetsFor(models, input.settings),
          };
          runs++;
          const reach = buildContext(withBudgets, { tokenizer: elementAt(models, 0).tokenizer });
          if (reach.trace.some((event) => event.action === "not-built")) cuts++;
          for (const model of models) {
            expect(payload(attempt(withBudgets, model, enabledToolNames))).toBe(
              payload(attempt(input, model, enabledToolNames)),
            );
          }
        },
      ),
      { seed: 20_261_126, numRuns: 400, interruptAfterTimeLimit: 20_000 },
    );
    // Not vacuous: the random conversations and windows make the cut happen in a good share of runs.
    expect(cuts).toBeGreaterThan(runs / 20);
  });
});
