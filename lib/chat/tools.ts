// The built-in tools a persona can enable (SPEC §7.4), described for the system prompt's tool section.

import type { ToolInfo } from "@/lib/context/types";

export const TOOL_CATALOG: ToolInfo[] = [
  {
    name: "current_time",
    description: "Returns the current date and time in UTC.",
    rules: "Call current_time whenever the answer depends on today's date or the time.",
  },
  {
    name: "remember",
    description: "Stores a short fact or preference about the user as a memory for later conversations.",
    rules: "Call remember only for durable facts or preferences the user states about themselves.",
  },
  {
    name: "analyze_image",
    description: "Describes an image from the conversation by its media handle (e.g. media_2) with a vision model.",
    rules: "When you cannot see an image yourself, call analyze_image with its media handle instead of guessing.",
  },
];
