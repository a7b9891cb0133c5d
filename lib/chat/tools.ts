// The built-in tools a persona can enable (SPEC §7.4): described for the system prompt's tool section, and run in
// the reply's tool loop. Each is small and safe: it reads the clock, or stores a memory for the person asking.

import { type ToolSet, tool } from "ai";
import { z } from "zod";
import type { Database } from "@/db/client";
import { storeToolMemory } from "@/db/queries";
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
    description:
      "Describes an image from the conversation by its media handle (e.g. media_2) with a vision model.",
    rules:
      "When you cannot see an image yourself, call analyze_image with its media handle instead of guessing.",
  },
];

/** Model calls one reply may make while it uses tools (the last one answers); also the prompt's iteration budget. */
export const MAX_TOOL_STEPS = 5;

/** Who and where a tool runs for. */
export interface ToolContext {
  db: Database;
  userId: string;
  personaId: string;
  now?: () => Date;
}

/** The tools that run here, by name. `analyze_image` is described but not run yet: it is never offered. */
const RUNNABLE: Record<string, (context: ToolContext) => ToolSet[string]> = {
  current_time: ({ now = () => new Date() }) =>
    tool({
      description: "Returns the current date and time in UTC.",
      inputSchema: z.object({}),
      execute: async () => ({ utc: now().toISOString() }),
    }),
  remember: ({ db, userId, personaId }) =>
    tool({
      description: "Stores a short fact or preference about the user as a memory for later conversations.",
      inputSchema: z.object({
        content: z.string().trim().min(1).max(500).describe("The fact or preference, in one sentence."),
        area: z.enum(["fact", "preference"]).default("fact"),
      }),
      execute: async ({ content, area }) => {
        const memory = await storeToolMemory({ db, userId, personaId, area, content });
        return { stored: true, memoryId: memory.id };
      },
    }),
};

/** The persona's enabled tools that can run, in catalog order. */
export function runnableToolNames(enabled: readonly string[]): string[] {
  const wanted = new Set(enabled);
  return TOOL_CATALOG.filter((entry) => wanted.has(entry.name) && entry.name in RUNNABLE).map(
    (entry) => entry.name,
  );
}

/** The tool set for a reply, or undefined when the persona enables none that can run. */
export function toolSetFor(enabled: readonly string[], context: ToolContext): ToolSet | undefined {
  const names = runnableToolNames(enabled);
  if (names.length === 0) return undefined;
  return Object.fromEntries(names.map((name) => [name, RUNNABLE[name](context)]));
}
