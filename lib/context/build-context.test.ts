import { describe, expect, it } from "vitest";
import type {
  BuildInput,
  ContextItem,
  StoredArtifact,
  StoredAttachment,
  StoredMessage,
} from "@/lib/domain/types";
import {
  ADA,
  alternatingMessages,
  artifactOfType,
  blockRecord,
  buildInput,
  CONVERSATION_ID,
  deepFreeze,
  functionCallArtifact,
  functionOutputArtifact,
  imageAttachment,
  MALLORY,
  personaMessage,
  reasoningArtifact,
  summaryRecord,
  userMessage,
  viewItems,
} from "@/tests/context/fixtures";
import { storedArtifact, storedText } from "@/tests/context/stored-parts";
import { buildContext } from "./build-context";
import { summaryMarkerText } from "./summary-placement";
import { countTextTokens, TOKENS_PER_MESSAGE } from "./tokens";

/** A small conversation that touches every phase-A stage. */
function richInput(): BuildInput {
  const current = userMessage(16, "What should I wear?");
  const messages: StoredMessage[] = [
    userMessage(11, "Morning!", { tokenCounts: { o200k_base: 3 } }),
    userMessage(12, "Plans for today?", { tokenCounts: { o200k_base: 5 } }),
    userMessage(13, "buy cheap pills", { author: MALLORY }),
    personaMessage(14, "", {
      parts: [
        storedText("Let me check the time."),
        storedArtifact("w14"),
        storedArtifact("c14"),
        storedArtifact("o14"),
        storedText("It is 9am."),
      ],
    }),
    userMessage(15, "Look at this", { media: ["i15"] }),
    current, // the route stored it before building
  ];
  const artifacts: StoredArtifact[] = [
    artifactOfType("w14", "m14", "web_search_call", { query: "time" }),
    functionCallArtifact("c14", "m14", "call-1", "current_time", "{}"),
    functionOutputArtifact("o14", "m14", "call-1", "09:00"),
  ];
  const attachments: StoredAttachment[] = [imageAttachment("i15", "m15")];
  return buildInput({
    messages,
    currentInput: current,
    artifacts,
    attachments,
    summary: summaryRecord({ coversThroughSeq: 10, messageCount: 10 }),
    blocks: [blockRecord()],
    tools: [{ name: "current_time", description: "Tells the time." }],
    maxToolSteps: 3,
    memories: [
      { id: "mem1", area: "fact", content: "Ada likes linen." },
      {
        id: "mem2",
        area: "session_summary",
        content: "Ada planned a trip.",
        conversationId: CONVERSATION_ID,
        summaryId: "s1",
      },
    ],
    personaNote: "Keep answers short.",
    settings: { contextNote: { depth: 2 }, keyContextReminder: "Ada is in Lisbon." },
    userTurnNumber: 3,
  });
}

describe("buildContext (phase A end to end)", () => {
  it("builds the exact item list for a small conversation", () => {
    const input = deepFreeze(richInput());
    const { items, trace, settings } = buildContext(input);
    expect(settings).toBe(input.settings);
    expect(viewItems(items)).toEqual([
      {
        id: "system:SYSTEM_PROMPT",
        role: "system",
        tag: "SYSTEM_PROMPT",
        text: "You are Aria, a helpful guide.",
      },
      {
        id: "system:TOOL_RULES",
        role: "system",
        tag: "TOOL_RULES",
        text: "# ITERATION BUDGET\nYou can use tools for at most 3 steps in this reply. Plan your calls, and give your answer before the budget runs out.\n\n# TOOLS\nUse a tool only when it helps answer the user; never invent tool results.\n- current_time: Tells the time.",
      },
      {
        id: "system:CORE_MEMORIES",
        role: "system",
        tag: "CORE_MEMORIES",
        text: "# CORE MEMORIES\n- Ada likes linen.",
      },
      {
        id: "system:KEY_CONTEXT_REMINDER",
        role: "system",
        tag: "KEY_CONTEXT_REMINDER",
        text: "# KEY CONTEXT REMINDER\nAda is in Lisbon.",
      },
      {
        id: "system:PERSONA_USER_BLOCKS",
        role: "system",
        tag: "PERSONA_USER_BLOCKS",
        text: "# PERSONA USER BLOCKS\nThese users are restricted from interacting with Aria. A block is not deletion and not memory redaction: memories and documents about them are unchanged.\n- Mallory (u-mal): block — cannot trigger Aria, and their recent messages and media are hidden from this context. Expires: never. Reason: spam.",
      },
      {
        id: "summary:s1",
        role: "user",
        tag: "SUMMARY",
        text: summaryMarkerText(input.summary as NonNullable<BuildInput["summary"]>),
      },
      { id: "msg:m11", role: "user", tag: "DIALOGUE_HISTORY", text: "Ada: Morning!\nPlans for today?" },
      {
        id: "blocked:m13",
        role: "user",
        tag: "DIALOGUE_HISTORY",
        text: "[System: 1 message from Mallory hidden here: Mallory is blocked from Aria.]",
      },
      { id: "note:persona", role: "user", tag: "CONTEXT_NOTE", text: "[System: Keep answers short.]" },
      { id: "msg:m14", role: "assistant", tag: "DIALOGUE_HISTORY", text: "Aria: Let me check the time." },
      { id: "artifact:c14", role: "assistant", tag: "TOOL_CALL", text: "«call:call-1:current_time:{}»" },
      { id: "artifact:o14", role: "tool", tag: "TOOL_RESULT", text: "«result:call-1:09:00»" },
      { id: "msg:m14:text:1", role: "assistant", tag: "DIALOGUE_HISTORY", text: "It is 9am." },
      {
        id: "msg:m15",
        role: "user",
        tag: "DIALOGUE_HISTORY",
        text: "«media:media_15:render:i15» | Ada: Look at this",
      },
      { id: "msg:m16", role: "user", tag: "CURRENT_INPUT", text: "Ada: What should I wear?" },
    ]);
    expect(trace.map((event) => `${event.stage}/${event.action}`)).toEqual([
      "current-input/moved-current-input",
      "collapse/collapsed",
      "blocks/blocked",
      "roles/speaker-labels-on",
      "artifacts/dropped-non-replayable",
      "notes/injected-note",
      "system-prompt/skipped-memory",
      "summary/placed-summary",
    ]);
    expect(trace.find((event) => event.action === "injected-note")?.reason).toBe(
      "injected persona note at depth 2 before message #14",
    );
    // Sender metadata and sources survive every stage.
    const byId = new Map(items.map((item) => [item.id, item]));
    expect(byId.get("msg:m11")?.sourceMessageIds).toEqual(["m11", "m12"]);
    expect(byId.get("artifact:o14")?.sender).toEqual({
      type: "persona",
      name: "Aria",
      userId: null,
      personaId: "p-aria",
    });
    expect(byId.get("msg:m16")?.sender).toEqual({
      type: "user",
      name: "Ada",
      userId: ADA.userId,
      personaId: null,
    });
    // Tokens: only the collapsed pure-text run had cached counts.
    expect(byId.get("msg:m11")?.tokens).toBe(
      TOKENS_PER_MESSAGE + 3 + 5 + 1 + countTextTokens("Ada: ", "o200k_base"),
    );
    expect(items.filter((item) => item.tokens > 0).map((item) => item.id)).toEqual(["msg:m11"]);
    expect(buildContext(input, { tokenizer: null }).items.every((item) => item.tokens === 0)).toBe(true);
  });

  it("is deterministic: the same input gives a deep-equal (and byte-identical) result", () => {
    const first = buildContext(richInput());
    const second = buildContext(richInput());
    expect(second).toEqual(first);
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  });

  it("never modifies its inputs (frozen input builds, and stays equal to a fresh copy)", () => {
    const input = deepFreeze(richInput());
    buildContext(input);
    expect(input).toEqual(richInput());
  });

  it("with nothing but a prompt: the system prompt, then the current input", () => {
    expect(viewItems(buildContext(buildInput()).items)).toEqual([
      {
        id: "system:SYSTEM_PROMPT",
        role: "system",
        tag: "SYSTEM_PROMPT",
        text: "You are Aria, a helpful guide.",
      },
      { id: "msg:m1", role: "user", tag: "CURRENT_INPUT", text: "Hello?" },
    ]);
    expect(buildContext(buildInput()).trace).toEqual([]);
  });

  it("the current input is last and appears once, whether or not the loaded messages contain it", () => {
    const current = userMessage(5, "now");
    for (const messages of [alternatingMessages(4), [...alternatingMessages(4), current]]) {
      const { items } = buildContext(buildInput({ messages, currentInput: current }));
      expect(items[items.length - 1]).toMatchObject({ id: "msg:m5", tag: "CURRENT_INPUT" });
      expect(items.filter((item) => item.sourceMessageIds.includes("m5"))).toHaveLength(1);
      expect(
        items.filter((item) => item.parts.some((part) => part.type === "text" && part.text.includes("now"))),
      ).toHaveLength(1);
    }
  });

  it("after a reload on a summarising turn: summary before the preserved turns, prompt once at the end", () => {
    // Seed 002's bug: the summary row, written last, sorted after the kept turns and the triggering prompt, and
    // the prompt was sent twice. Here the loader also passed covered messages by mistake.
    const current = userMessage(9, "and then?");
    const messages = [...alternatingMessages(8), current];
    const summary = summaryRecord({
      coversThroughSeq: 4,
      messageCount: 4,
      createdAt: "2026-06-01T00:00:00.000Z",
    });
    const { items, trace } = buildContext(buildInput({ messages, currentInput: current, summary }));
    expect(items.map((item) => item.id)).toEqual([
      "system:SYSTEM_PROMPT",
      "summary:s1",
      "msg:m5",
      "msg:m6",
      "msg:m7",
      "msg:m8",
      "msg:m9",
    ]);
    expect(trace.map((event) => event.action)).toEqual([
      "moved-current-input",
      "dropped-covered",
      "placed-summary",
    ]);
  });

  it("windows the history and still keeps system, summary, notes and the current input", () => {
    const messages = alternatingMessages(30);
    const { items, trace } = buildContext(
      buildInput({
        messages,
        summary: summaryRecord({ coversThroughSeq: 0 }),
        conversationNote: "Be kind.",
        settings: { history: { maxItems: 4 }, contextNote: { depth: 10 } },
      }),
    );
    expect(items.map((item) => item.id)).toEqual([
      "system:SYSTEM_PROMPT",
      "summary:s1",
      "note:conversation",
      "msg:m27",
      "msg:m28",
      "msg:m29",
      "msg:m30",
      "msg:m31",
    ]);
    expect(trace.map((event) => event.action)).toEqual(["windowed", "injected-note", "placed-summary"]);
  });

  it("impersonation: the user's own lines are the assistant's, the persona's are user turns", () => {
    const { items } = buildContext(
      buildInput({ messages: alternatingMessages(2), impersonateUserId: ADA.userId }),
    );
    expect(items.map((item) => [item.id, item.role])).toEqual([
      ["system:SYSTEM_PROMPT", "system"],
      ["msg:m1", "assistant"],
      ["msg:m2", "user"],
      ["msg:m3", "user"],
    ]);
  });

  it("invariants over generated conversations: input last and once, system first, no orphans, no empty items", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    for (let round = 0; round < 40; round++) {
      const messages: StoredMessage[] = [];
      const attachments: StoredAttachment[] = [];
      const artifacts: StoredArtifact[] = [];
      const count = 1 + Math.floor(random() * 40);
      for (let seq = 1; seq <= count; seq++) {
        const id = `m${seq}`;
        const roll = random();
        if (roll < 0.4) {
          const media = random() < 0.3 ? [`i${seq}`] : [];
          for (const attachmentId of media)
            attachments.push(imageAttachment(attachmentId, id, { sha256: `sha${Math.floor(random() * 4)}` }));
          messages.push(
            userMessage(seq, random() < 0.1 ? "" : `u${seq}`, {
              media,
              author: random() < 0.15 ? MALLORY : ADA,
            }),
          );
        } else if (roll < 0.8) {
          messages.push(personaMessage(seq, `a${seq}`));
        } else {
          const ids = [`c${seq}`, `o${seq}`, `r${seq}`].filter(() => random() < 0.8);
          artifacts.push(
            functionCallArtifact(`c${seq}`, id, `k${seq}`, "t"),
            functionOutputArtifact(`o${seq}`, id, `k${seq}`, "x".repeat(Math.floor(random() * 2_000))),
            reasoningArtifact(`r${seq}`, id, "hmm"),
          );
          messages.push(personaMessage(seq, random() < 0.5 ? "" : `t${seq}`, { artifacts: ids }));
        }
      }
      const current = userMessage(count + 1, "now");
      const input = deepFreeze(
        buildInput({
          messages: random() < 0.5 ? [...messages, current] : messages,
          currentInput: current,
          attachments,
          artifacts,
          blocks: [blockRecord()],
          personaNote: random() < 0.5 ? "note" : null,
          summary: random() < 0.3 ? summaryRecord({ coversThroughSeq: Math.floor(random() * count) }) : null,
          settings: {
            history: { maxItems: random() < 0.5 ? 2 + Math.floor(random() * 10) : null },
            contextNote: { depth: Math.floor(random() * 12) },
            media: { window: Math.floor(random() * 10), imageMessageLimit: Math.floor(random() * 3) },
            tools: { outputRetentionTurns: Math.floor(random() * 4) },
          },
        }),
      );
      const { items } = buildContext(input);
      expect(items[items.length - 1]?.tag).toBe("CURRENT_INPUT");
      expect(items.filter((item) => item.tag === "CURRENT_INPUT")).toHaveLength(1);
      expect(items.filter((item) => item.sourceMessageIds.includes(current.id))).toHaveLength(1);
      const firstNonSystem = items.findIndex((item) => item.role !== "system");
      expect(
        items.slice(firstNonSystem).some((item) => item.role === "system" && item.tag !== "CONTEXT_NOTE"),
      ).toBe(false);
      expect(items.every((item) => item.parts.length > 0)).toBe(true);
      expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
      const partsOf = (type: "tool-call" | "tool-result") =>
        items.flatMap((item: ContextItem) =>
          item.parts
            .filter((part) => part.type === type)
            .map((part) => (part as { toolCallId: string }).toolCallId),
        );
      expect(new Set(partsOf("tool-call"))).toEqual(new Set(partsOf("tool-result")));
      expect(buildContext(input)).toEqual(buildContext(input));
    }
  });
});
