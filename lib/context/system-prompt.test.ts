import { describe, expect, it } from "vitest";
import type { MemoryInfo, ToolInfo } from "@/lib/domain/types";
import {
  blockRecord,
  CONVERSATION_ID,
  NOW,
  PERSONA,
  summaryRecord,
  viewItems,
} from "@/tests/context/fixtures";
import { buildSystemItems, coreMemoriesText, prependSystemPrompt, toolRulesText } from "./system-prompt";

const tools: ToolInfo[] = [
  { name: "current_time", description: "Tells the time." },
  { name: "remember", description: "Stores a memory.", rules: "Only when the user asks you to remember." },
];
const memories: MemoryInfo[] = [
  { id: "mem1", area: "fact", content: "Ada lives in Porto." },
  {
    id: "mem2",
    area: "session_summary",
    content: "Old summary of this chat.",
    conversationId: CONVERSATION_ID,
    summaryId: "s1",
  },
  { id: "mem3", area: "session_summary", content: "Summary of another chat.", conversationId: "c-other" },
];

/** The system prompt's input with nothing in it but the persona. */
const PLAIN_INPUT: Parameters<typeof buildSystemItems>[0] = {
  persona: PERSONA,
  tools: [],
  memories: [],
  conversationId: CONVERSATION_ID,
  summary: null,
  keyContextReminder: "",
  blocks: [],
  now: NOW,
};

function build(overrides: Partial<Parameters<typeof buildSystemItems>[0]> = {}) {
  return buildSystemItems({ ...PLAIN_INPUT, ...overrides });
}

describe("system prompt", () => {
  it("all parts, in order, as separate system items with their tags", () => {
    const result = build({
      tools,
      maxToolSteps: 5,
      memories,
      keyContextReminder: "Ada is vegetarian.",
      conversationInstructions: "Answer in Portuguese.",
      blocks: [blockRecord()],
    });
    expect(viewItems(result.value)).toEqual([
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
        text: [
          "# ITERATION BUDGET",
          "You can use tools for at most 5 steps in this reply. Plan your calls, and give your answer before the budget runs out.",
          "",
          "# TOOLS",
          "Use a tool only when it helps answer the user; never invent tool results.",
          "- current_time: Tells the time.",
          "- remember: Stores a memory.",
          "  Rules: Only when the user asks you to remember.",
        ].join("\n"),
      },
      {
        id: "system:CORE_MEMORIES",
        role: "system",
        tag: "CORE_MEMORIES",
        text: "# CORE MEMORIES\n- Ada lives in Porto.\n- Old summary of this chat.\n- Summary of another chat.",
      },
      {
        id: "system:KEY_CONTEXT_REMINDER",
        role: "system",
        tag: "KEY_CONTEXT_REMINDER",
        text: "# KEY CONTEXT REMINDER\nAda is vegetarian.",
      },
      {
        id: "system:CONVERSATION_INSTRUCTIONS",
        role: "system",
        tag: "CONVERSATION_INSTRUCTIONS",
        text: "# CONVERSATION INSTRUCTIONS\nAnswer in Portuguese.",
      },
      expect.objectContaining({
        id: "system:PERSONA_USER_BLOCKS",
        role: "system",
        tag: "PERSONA_USER_BLOCKS",
      }),
    ]);
    expect(result.trace).toEqual([]);
  });

  it("leaves out this conversation's session_summary memory when a summary is in the history", () => {
    const result = build({ memories, summary: summaryRecord({ coversThroughSeq: 10 }) });
    expect(viewItems(result.value)[1]?.text).toBe(
      "# CORE MEMORIES\n- Ada lives in Porto.\n- Summary of another chat.",
    );
    expect(result.trace).toEqual([
      {
        stage: "system-prompt",
        action: "skipped-memory",
        reason:
          "1 session-summary memory of this conversation left out: the summary is already in the history",
        details: { memoryIds: ["mem2"] },
      },
    ]);
  });

  it("only the persona prompt when nothing else is set; nothing at all for an empty prompt", () => {
    expect(build().value.map((item) => item.tag)).toEqual(["SYSTEM_PROMPT"]);
    expect(build({ persona: { ...PERSONA, systemPrompt: "  " } }).value).toEqual([]);
  });

  it("no iteration budget for a single tool step; no tool section without tools", () => {
    expect(toolRulesText(tools, 1)?.startsWith("# TOOLS")).toBe(true);
    expect(toolRulesText(tools, undefined)?.startsWith("# TOOLS")).toBe(true);
    expect(toolRulesText([], 5)).toBeNull();
    expect(coreMemoriesText([])).toBeNull();
  });

  it("inactive blocks leave the card out", () => {
    expect(
      build({ blocks: [blockRecord({ expiresAt: "2026-01-01T00:00:00.000Z" })] }).value.map(
        (item) => item.tag,
      ),
    ).toEqual(["SYSTEM_PROMPT"]);
  });

  it("prependSystemPrompt puts the system items first", () => {
    const history = [
      {
        id: "msg:m1",
        role: "user" as const,
        tag: "DIALOGUE_HISTORY" as const,
        parts: [],
        sourceMessageIds: ["m1"],
        tokens: 0,
      },
    ];
    const result = prependSystemPrompt(history, PLAIN_INPUT);
    expect(result.value.map((item) => item.id)).toEqual(["system:SYSTEM_PROMPT", "msg:m1"]);
  });
});
