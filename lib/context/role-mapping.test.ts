import { describe, expect, it } from "vitest";
import type { StoredMessage } from "@/lib/domain/types";
import {
  ADA,
  BOB,
  blockRecord,
  deepFreeze,
  MALLORY,
  NOW,
  OTHER_PERSONA,
  PERSONA,
  personaMessage,
  settingsWith,
  systemMessage,
  userMessage,
  viewItems,
} from "@/tests/context/fixtures";
import { storedArtifact, storedMedia, storedText } from "@/tests/context/stored-parts";
import { collapseRuns } from "./collapse-runs";
import { elementAt } from "./indexing";
import { messageLayout, roleFor } from "./messages";
import { applyPersonaUserBlocks } from "./persona-user-blocks";
import {
  labelText,
  mapRoles,
  speakerLabelsOn,
  splitLeadingSystemBlocks,
  systemNoticeText,
} from "./role-mapping";
import { countTextTokens, TOKENS_PER_MESSAGE } from "./tokens";

function map(
  messages: StoredMessage[],
  options: {
    labels?: "auto" | "always" | "never";
    impersonate?: string;
    current?: StoredMessage;
    tokenizer?: "o200k_base" | null;
  } = {},
) {
  deepFreeze(messages);
  const { value: entries } = collapseRuns(messages);
  const blocked = applyPersonaUserBlocks({
    entries,
    blocks: [blockRecord()],
    personaId: PERSONA.id,
    personaName: PERSONA.name,
    now: NOW,
  });
  return mapRoles({
    entries: blocked.value.entries,
    currentInput: options.current ?? userMessage(99, "now?"),
    persona: PERSONA,
    participants: [],
    allMessages: messages,
    impersonateUserId: options.impersonate ?? null,
    settings: settingsWith({ history: { speakerLabels: options.labels ?? "auto" } }),
    tokenizer: options.tokenizer ?? null,
  });
}

describe("role mapping", () => {
  it("persona → assistant, other personas and humans → user, labels off for one human and one persona", () => {
    const result = map([userMessage(1, "hi"), personaMessage(2, "hello")]);
    expect(viewItems(result.value.history)).toEqual([
      { id: "msg:m1", role: "user", tag: "DIALOGUE_HISTORY", text: "hi" },
      { id: "msg:m2", role: "assistant", tag: "DIALOGUE_HISTORY", text: "hello" },
    ]);
    expect(viewItems([result.value.current])).toEqual([
      { id: "msg:m99", role: "user", tag: "CURRENT_INPUT", text: "now?" },
    ]);
    expect(result.value.history[1]?.sender).toEqual({
      type: "persona",
      name: "Aria",
      userId: null,
      personaId: PERSONA.id,
    });
    expect(result.value.history[0]?.sender).toEqual({
      type: "user",
      name: "Ada",
      userId: ADA.userId,
      personaId: null,
    });
    expect(result.trace).toEqual([]);
  });

  it("auto labels turn on with a second human, label every dialogue line including the persona's and the input", () => {
    const result = map([
      userMessage(1, "hi"),
      userMessage(2, "yo", { author: BOB }),
      personaMessage(3, "hello both"),
    ]);
    expect(viewItems([...result.value.history, result.value.current]).map((item) => item.text)).toEqual([
      "Ada: hi",
      "Bob: yo",
      "Aria: hello both",
      "Ada: now?",
    ]);
    expect(result.trace).toEqual([
      {
        stage: "roles",
        action: "speaker-labels-on",
        reason: "speaker labels on: 2 humans and 1 personas take part",
        counts: { humans: 2, personas: 1 },
      },
    ]);
  });

  it("auto labels turn on with a second persona, which maps to user", () => {
    const result = map([
      userMessage(1, "hi"),
      personaMessage(2, "I am Zed", { persona: OTHER_PERSONA }),
      personaMessage(3, "I am Aria"),
    ]);
    expect(viewItems(result.value.history)).toEqual([
      { id: "msg:m1", role: "user", tag: "DIALOGUE_HISTORY", text: "Ada: hi" },
      { id: "msg:m2", role: "user", tag: "DIALOGUE_HISTORY", text: "Zed: I am Zed" },
      { id: "msg:m3", role: "assistant", tag: "DIALOGUE_HISTORY", text: "Aria: I am Aria" },
    ]);
  });

  it.each([
    { labels: "always" as const, expected: ["Ada: hi", "Aria: hello"] },
    { labels: "never" as const, expected: ["hi", "hello"] },
    { labels: "auto" as const, expected: ["hi", "hello"] },
  ])("speakerLabels $labels with one human", ({ labels, expected }) => {
    expect(
      viewItems(map([userMessage(1, "hi"), personaMessage(2, "hello")], { labels }).value.history).map(
        (item) => item.text,
      ),
    ).toEqual(expected);
  });

  it("never labels even with several humans", () => {
    expect(
      map([userMessage(1, "hi"), userMessage(2, "yo", { author: BOB })], {
        labels: "never",
      }).value.history.map((item) => item.parts),
    ).toEqual([[{ type: "text", text: "hi" }], [{ type: "text", text: "yo" }]]);
  });

  it("impersonation flips roles: the impersonated user is the assistant, the persona a user", () => {
    const result = map(
      [userMessage(1, "hi"), userMessage(2, "yo", { author: BOB }), personaMessage(3, "hello")],
      { impersonate: ADA.userId, labels: "never" },
    );
    expect(result.value.history.map((item) => item.role)).toEqual(["assistant", "user", "user"]);
    expect(result.value.current.role).toBe("user");
    expect(result.trace.map((event) => event.action)).toEqual(["impersonation"]);
  });

  it("stored system messages become unlabelled [System: …] user lines", () => {
    const result = map(
      [
        systemMessage(1, "Bob joined"),
        systemMessage(3, "[System: already wrapped]", { id: "s3" }),
        userMessage(4, "x", { author: BOB }),
      ],
      { labels: "always" },
    );
    expect(viewItems(result.value.history).map((item) => [item.role, item.text])).toEqual([
      ["user", "[System: Bob joined]\n[System: already wrapped]"],
      ["user", "Bob: x"],
    ]);
  });

  it("blocked notices map to user items with the system sender", () => {
    const result = map([userMessage(1, "spam", { author: MALLORY }), personaMessage(2, "ok")]);
    expect(viewItems(result.value.history)[0]).toEqual({
      id: "blocked:m1",
      role: "user",
      tag: "DIALOGUE_HISTORY",
      text: "[System: 1 message from Mallory hidden here: Mallory is blocked from Aria.]",
    });
    expect(result.value.history[0]?.sender).toEqual({ type: "system", name: "System" });
    expect(result.value.history[0]?.sourceMessageIds).toEqual(["m1"]);
  });

  it("collapsed runs become one item with every source message", () => {
    const result = map([userMessage(1, "a"), userMessage(2, "b"), personaMessage(3, "c")], {
      labels: "always",
    });
    expect(viewItems(result.value.history)[0]).toEqual({
      id: "msg:m1",
      role: "user",
      tag: "DIALOGUE_HISTORY",
      text: "Ada: a\nb",
    });
    expect(result.value.history[0]?.sourceMessageIds).toEqual(["m1", "m2"]);
  });

  it("media-only and artifact-only messages keep an item with no parts yet (later stages fill or drop them)", () => {
    const result = map([userMessage(1, "", { media: ["i1"] }), personaMessage(2, "", { artifacts: ["a1"] })]);
    expect(result.value.history.map((item) => item.parts)).toEqual([[], []]);
  });

  it("an assistant message with artifacts keeps its text pieces apart, labelled once", () => {
    const message = personaMessage(2, "", {
      parts: [
        storedText("Let me check."),
        storedArtifact("c1"),
        storedArtifact("o1"),
        storedText("It is sunny."),
      ],
    });
    const result = map([userMessage(1, "weather?"), message], { labels: "always" });
    expect(result.value.history[1]?.parts).toEqual([
      { type: "text", text: "Aria: Let me check." },
      { type: "text", text: "It is sunny." },
    ]);
  });

  it("fills tokens from cached counts for pure-text items, 0 otherwise", () => {
    const label = countTextTokens("Ada: ", "o200k_base");
    const result = map(
      [
        userMessage(1, "a", { tokenCounts: { o200k_base: 5 } }),
        userMessage(2, "b", { tokenCounts: { o200k_base: 7 } }),
        personaMessage(3, "c"),
        userMessage(4, "d", { media: ["i1"], tokenCounts: { o200k_base: 3 } }),
        systemMessage(5, "x", { tokenCounts: { o200k_base: 1 } }),
      ],
      { labels: "always", tokenizer: "o200k_base" },
    );
    expect(result.value.history.map((item) => item.tokens)).toEqual([
      TOKENS_PER_MESSAGE + 5 + 7 + 1 + label,
      0,
      0,
      0,
    ]);
    expect(
      map([userMessage(1, "a", { tokenCounts: { o200k_base: 5 } })], { tokenizer: null }).value.history[0]
        ?.tokens,
    ).toBe(0);
  });

  describe("cached counts of a message split around its tool calls", () => {
    /** Aria's turn: two text pieces around a call and its output, with the pieces' counts cached. */
    const split = (
      segmentTokenCounts: StoredMessage["segmentTokenCounts"],
      extraParts: StoredMessage["parts"] = [],
    ): StoredMessage => ({
      ...personaMessage(2, "", {
        parts: [
          { type: "text", text: "Let me check." },
          { type: "artifact", artifactId: "c1" },
          { type: "artifact", artifactId: "o1" },
          { type: "text", text: "It is sunny." },
          ...extraParts,
        ],
        tokenCounts: { o200k_base: 50 },
      }),
      segmentTokenCounts,
    });
    const splitTokens = (message: StoredMessage, options: Parameters<typeof map>[1] = {}) =>
      elementAt(
        map([userMessage(1, "weather?"), message], { tokenizer: "o200k_base", ...options }).value.history,
        1,
      ).tokens;

    it("frames the sum of its segment counts, plus the label when labels are on", () => {
      const message = split({ o200k_base: [3, 5] });
      expect(splitTokens(message, { labels: "never" })).toBe(TOKENS_PER_MESSAGE + 3 + 5);
      expect(splitTokens(message, { labels: "auto" })).toBe(TOKENS_PER_MESSAGE + 3 + 5);
      expect(splitTokens(message, { labels: "always" })).toBe(
        TOKENS_PER_MESSAGE + 3 + 5 + countTextTokens("Aria: ", "o200k_base"),
      );
    });

    it("is 0 when the cached segments do not match the message's segments", () => {
      expect(splitTokens(split({ o200k_base: [8] }))).toBe(0);
      expect(splitTokens(split({ o200k_base: [3, 5, 2] }))).toBe(0);
      // Cached for another tokenizer only, or not at all: the whole-text count is not used instead.
      expect(splitTokens(split({ estimate: [3, 5] }))).toBe(0);
      expect(splitTokens(split(null))).toBe(0);
      expect(splitTokens(split(undefined))).toBe(0);
    });

    it("is 0 for a split message with media, and for one with no text at all", () => {
      expect(splitTokens(split({ o200k_base: [3, 5] }, [{ type: "media", attachmentId: "i1" }]))).toBe(0);
      const artifactsOnly: StoredMessage = {
        ...personaMessage(2, "", { artifacts: ["c1", "o1"], tokenCounts: { o200k_base: 0 } }),
        segmentTokenCounts: { o200k_base: [] },
      };
      expect(splitTokens(artifactsOnly)).toBe(0);
    });

    it("is 0 with no tokenizer", () => {
      expect(splitTokens(split({ o200k_base: [3, 5] }), { tokenizer: null })).toBe(0);
    });

    it("a message with artifacts that is not split (a user's turn) uses its whole count", () => {
      const userTurn = userMessage(1, "mine", { artifacts: ["c9"], tokenCounts: { o200k_base: 6 } });
      expect(map([userTurn], { tokenizer: "o200k_base", labels: "never" }).value.history[0]?.tokens).toBe(
        TOKENS_PER_MESSAGE + 6,
      );
      expect(map([userTurn], { tokenizer: "o200k_base", labels: "always" }).value.history[0]?.tokens).toBe(
        TOKENS_PER_MESSAGE + 6 + countTextTokens("Ada: ", "o200k_base"),
      );
      // The persona's split turn becomes a user's when impersonating: one piece, the whole count.
      const flipped = map([split({ o200k_base: [3, 5] })], {
        tokenizer: "o200k_base",
        labels: "never",
        impersonate: ADA.userId,
      }).value.history[0];
      expect(flipped?.parts).toEqual([{ type: "text", text: "Let me check.\nIt is sunny." }]);
      expect(flipped?.tokens).toBe(TOKENS_PER_MESSAGE + 50);
      // With media it is left for later, like any media message.
      const withMedia = userMessage(1, "mine", {
        media: ["i1"],
        artifacts: ["c9"],
        tokenCounts: { o200k_base: 6 },
      });
      expect(map([withMedia], { tokenizer: "o200k_base" }).value.history[0]?.tokens).toBe(0);
    });
  });

  it("helpers", () => {
    expect(roleFor(personaMessage(1, "x"), PERSONA.id, null)).toBe("assistant");
    expect(roleFor(personaMessage(1, "x"), PERSONA.id, ADA.userId)).toBe("user");
    expect(roleFor(userMessage(1, "x"), PERSONA.id, ADA.userId)).toBe("assistant");
    expect(labelText("Ada", "[System: note]\nhello")).toBe("[System: note]\nAda: hello");
    expect(labelText("Ada", "[System: only a note]")).toBe("[System: only a note]");
    expect(labelText("Ada", "[System: unclosed")).toBe("Ada: [System: unclosed");
    expect(splitLeadingSystemBlocks("[System: a [nested]] [System: b] rest")).toEqual({
      blocks: ["[System: a [nested]]", "[System: b]"],
      rest: "rest",
    });
    expect(systemNoticeText("x")).toBe("[System: x]");
    expect(
      messageLayout(
        personaMessage(1, "", {
          parts: [storedArtifact("a"), storedText("t"), storedMedia("i"), storedText("u")],
        }),
      ),
    ).toEqual([
      { kind: "artifact", artifactId: "a" },
      { kind: "text", text: "t\nu" },
    ]);
    expect(
      speakerLabelsOn({
        mode: "auto",
        messages: [userMessage(1, "x")],
        currentInput: null,
        persona: PERSONA,
        participants: [{ userId: "u-bob", name: "Bob" }],
      }).on,
    ).toBe(true);
  });
});
