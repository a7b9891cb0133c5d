// Phase A's system prompt (docs/pipeline.md#system-prompt), in a fixed order: rebuilt fresh every
// turn and never taken from stored history. Separate system-role items, so the inspector can show and cost each
// part: the persona's prompt; the tool-loop iteration budget and tool usage rules; # CORE MEMORIES; # KEY CONTEXT
// REMINDER; the conversation's instructions; the persona-user-blocks card. A session_summary memory of this
// conversation is left out when the conversation has an active summary (it is already in the history, and
// the model would otherwise read the same summary twice).

import type {
  ContextItem,
  ItemTag,
  MemoryInfo,
  PersonaInfo,
  PersonaUserBlock,
  StoredSummary,
  ToolInfo,
  TraceEvent,
} from "@/lib/domain/types";
import { activeBlocksFor, personaUserBlocksCardText } from "./persona-user-blocks";
import type { HistoryItems, PhaseAContext } from "./phases";
import type { Stage, StageResult } from "./stage";
import { plural, traceEvent } from "./trace";

export function systemItemId(tag: ItemTag): string {
  return `system:${tag}`;
}

function systemItem(tag: ItemTag, text: string): ContextItem {
  return {
    id: systemItemId(tag),
    role: "system",
    tag,
    parts: [{ type: "text", text }],
    sourceMessageIds: [],
    tokens: 0,
  };
}

/** The tool section: the iteration budget when tools loop (more than one step), then one line per tool. */
export function toolRulesText(tools: readonly ToolInfo[], maxToolSteps: number | undefined): string | null {
  if (tools.length === 0) return null;
  const sections: string[] = [];
  if (maxToolSteps !== undefined && maxToolSteps > 1) {
    sections.push(
      `# ITERATION BUDGET\nYou can use tools for at most ${maxToolSteps} steps in this reply. Plan your calls, and give your answer before the budget runs out.`,
    );
  }
  const lines = ["# TOOLS", "Use a tool only when it helps answer the user; never invent tool results."];
  for (const tool of tools) {
    lines.push(`- ${tool.name}: ${tool.description}`);
    if (tool.rules && tool.rules.trim() !== "") lines.push(`  Rules: ${tool.rules.trim()}`);
  }
  sections.push(lines.join("\n"));
  return sections.join("\n\n");
}

export function coreMemoriesText(memories: readonly MemoryInfo[]): string | null {
  if (memories.length === 0) return null;
  return ["# CORE MEMORIES", ...memories.map((memory) => `- ${memory.content}`)].join("\n");
}

/** Whether a memory repeats this conversation's summary, which the history already carries. */
function repeatsActiveSummary(
  memory: MemoryInfo,
  conversationId: string,
  summary: StoredSummary | null,
): boolean {
  return summary !== null && memory.area === "session_summary" && memory.conversationId === conversationId;
}

export function buildSystemItems(args: {
  persona: PersonaInfo;
  tools: readonly ToolInfo[];
  maxToolSteps?: number;
  memories: readonly MemoryInfo[];
  conversationId: string;
  summary: StoredSummary | null;
  keyContextReminder: string;
  conversationInstructions?: string | null;
  blocks: readonly PersonaUserBlock[];
  now: string;
}): StageResult<ContextItem[]> {
  const items: ContextItem[] = [];
  const trace: TraceEvent[] = [];

  if (args.persona.systemPrompt.trim() !== "")
    items.push(systemItem("SYSTEM_PROMPT", args.persona.systemPrompt));

  const toolRules = toolRulesText(args.tools, args.maxToolSteps);
  if (toolRules !== null) items.push(systemItem("TOOL_RULES", toolRules));

  const memories: MemoryInfo[] = [];
  const repeated: string[] = [];
  for (const memory of args.memories) {
    if (memory.content.trim() === "") continue;
    if (repeatsActiveSummary(memory, args.conversationId, args.summary)) repeated.push(memory.id);
    else memories.push(memory);
  }
  const core = coreMemoriesText(memories);
  if (core !== null) items.push(systemItem("CORE_MEMORIES", core));
  if (repeated.length > 0) {
    trace.push(
      traceEvent(
        "system-prompt",
        "skipped-memory",
        `${plural(repeated.length, "session-summary memory", "session-summary memories")} of this conversation left out: the summary is already in the history`,
        {
          details: { memoryIds: repeated },
        },
      ),
    );
  }

  if (args.keyContextReminder.trim() !== "") {
    items.push(
      systemItem("KEY_CONTEXT_REMINDER", `# KEY CONTEXT REMINDER\n${args.keyContextReminder.trim()}`),
    );
  }
  const instructions = args.conversationInstructions?.trim();
  if (instructions)
    items.push(systemItem("CONVERSATION_INSTRUCTIONS", `# CONVERSATION INSTRUCTIONS\n${instructions}`));

  const blocks = activeBlocksFor(args.blocks, args.persona.id, args.now);
  if (blocks.length > 0)
    items.push(systemItem("PERSONA_USER_BLOCKS", personaUserBlocksCardText(blocks, args.persona.name)));

  return { value: items, trace };
}

/** The system items first, then everything else. */
export function prependSystemPrompt(
  items: readonly ContextItem[],
  args: Parameters<typeof buildSystemItems>[0],
): StageResult<ContextItem[]> {
  const system = buildSystemItems(args);
  return { value: system.value.concat(items), trace: system.trace };
}

/** Phase A: the system-prompt items first. */
export const systemPromptStage: Stage<HistoryItems, HistoryItems, PhaseAContext> = {
  name: "system-prompt",
  run({ items, current }, { input, settings }) {
    const withSystem = prependSystemPrompt(items, {
      persona: input.persona,
      tools: input.tools,
      maxToolSteps: input.maxToolSteps,
      memories: input.memories,
      conversationId: input.conversationId,
      summary: input.summary,
      keyContextReminder: settings.keyContextReminder,
      conversationInstructions: input.conversationInstructions,
      blocks: input.blocks,
      now: input.now,
    });
    return { value: { items: withSystem.value, current }, trace: withSystem.trace };
  },
};
