// What each item tag means, in one line for the prompt inspector, and the colour it is drawn in.
// Colours are Tailwind palette names so the UI can build class names from them (e.g. `bg-${colour}-100`).

import type { ItemTag } from "@/lib/domain/types";

export const TAG_DESCRIPTIONS: Record<ItemTag, string> = {
  SYSTEM_PROMPT: "The persona's role prompt, rebuilt fresh every turn.",
  TOOL_RULES: "The tool-loop iteration budget and how to use the enabled tools.",
  CORE_MEMORIES: "Long-lived memories about the user and persona, injected into the system prompt.",
  KEY_CONTEXT_REMINDER: "A reminder the admin wants the model to keep in mind on every turn.",
  CONVERSATION_INSTRUCTIONS: "Instructions set for this conversation only.",
  PERSONA_USER_BLOCKS: "Users muted or blocked from this persona, and what that means.",
  SUMMARY: "A summary standing in for older turns that are no longer sent verbatim.",
  DIALOGUE_HISTORY: "A past message of the conversation, as the model sees it.",
  MEDIA_NOTICE: "A notice about media the model is not shown (limits, window, capability).",
  CONTEXT_NOTE: "A note injected at a depth from the end of the history (the author's note).",
  TOOL_CALL: "A tool call the persona made in an earlier reply, replayed.",
  TOOL_RESULT: "The output of an earlier tool call, replayed (possibly pruned).",
  REASONING: "The persona's stored reasoning from an earlier reply, replayed.",
  CURRENT_INPUT: "The message being answered now; always last.",
};

export const TAG_COLOURS: Record<ItemTag, string> = {
  SYSTEM_PROMPT: "slate",
  TOOL_RULES: "zinc",
  CORE_MEMORIES: "violet",
  KEY_CONTEXT_REMINDER: "fuchsia",
  CONVERSATION_INSTRUCTIONS: "indigo",
  PERSONA_USER_BLOCKS: "red",
  SUMMARY: "amber",
  DIALOGUE_HISTORY: "sky",
  MEDIA_NOTICE: "orange",
  CONTEXT_NOTE: "lime",
  TOOL_CALL: "teal",
  TOOL_RESULT: "emerald",
  REASONING: "purple",
  CURRENT_INPUT: "blue",
};
