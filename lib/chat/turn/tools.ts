// The built-in tools a persona can enable: described for the system prompt's tool section, and run in
// the reply's tool loop. Each is small and safe: it reads the clock, stores a memory for the person asking, or has
// a model that can see describe an image of this conversation (for a model that cannot).

import "server-only";
import { generateText, type ToolSet, tool } from "ai";
import { z } from "zod";
import { listMessageImages } from "@/db/attachment-queries";
import type { Database } from "@/db/client";
import { storeToolMemory } from "@/db/memory-queries";
import { getModel, listModels } from "@/db/model-queries";
import type { Model } from "@/db/schema";
import type { ToolInfo } from "@/lib/domain/types";
import { isProviderConfigured, languageModelFor } from "@/lib/providers/language-model";
import { toModelDescriptor } from "./stored-rows";

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
  conversationId: string;
  /** The persona's model then its fallbacks: the first of them that can see describes images. */
  personaModelIds: string[];
  now?: () => Date;
}

export const ANALYZE_IMAGE_PROMPT =
  "Describe this image for someone who cannot see it: what it shows, any text in it, and details that could matter to a question about it. Be factual and concise.";
const ANALYSIS_TIMEOUT_MS = 60_000;

/** The tools that run here, by name. */
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
  analyze_image: (context) =>
    tool({
      description:
        "Describes an image from the conversation by its media handle (e.g. media_2) with a vision model.",
      inputSchema: z.object({
        mediaId: z
          .string()
          .regex(/^media_\d+(?:_\d+)?$/, "a media handle such as media_2 or media_2_1")
          .describe(
            "The media handle from the conversation, e.g. media_2 (or media_2_1 in a message with several).",
          ),
      }),
      execute: async ({ mediaId }) => describeImages(context, mediaId),
    }),
};

/**
 * The images a handle names, described by a model that can see (persona's own models first): `media_<seq>` is the
 * message's images, `media_<seq>_<n>` its n-th media part (the pipeline's handles, lib/context/media-budget.ts).
 */
async function describeImages(context: ToolContext, mediaId: string) {
  const [seq, position] = mediaId.slice("media_".length).split("_").map(Number);
  const all = await listMessageImages({ db: context.db, conversationId: context.conversationId, seq });
  const named =
    position === undefined
      ? null
      : all[0]?.parts.filter((part) => part.type === "media")[position - 1]?.attachmentId;
  const images = named === null ? all : all.filter((image) => image.id === named);
  if (images.length === 0) return { error: `No image has the handle ${mediaId} in this conversation.` };
  const vision = await visionModel(context);
  if (!vision)
    return { error: "No model that can see images is configured, so the image cannot be described." };
  const result = await generateText({
    model: languageModelFor(toModelDescriptor(vision)),
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: ANALYZE_IMAGE_PROMPT },
          ...images.map((image) => ({
            type: "file" as const,
            mediaType: image.mime,
            data: `data:${image.mime};base64,${image.data}`,
          })),
        ],
      },
    ],
    maxRetries: 0,
    abortSignal: AbortSignal.timeout(ANALYSIS_TIMEOUT_MS),
  });
  return { mediaId, describedBy: vision.id, description: result.text };
}

/** The first usable model that can see: the persona's own, then any other (never the offline model). */
async function visionModel({ db, personaModelIds }: ToolContext): Promise<Model | null> {
  const usable = (row: Model | null): row is Model =>
    row?.enabled === true &&
    row.capabilities.vision &&
    row.provider !== "offline" &&
    isProviderConfigured(row.provider);
  for (const modelId of personaModelIds) {
    const row = await getModel({ db, modelId });
    if (usable(row)) return row;
  }
  return (await listModels({ db })).find(usable) ?? null;
}

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

/** The persona's tool set for a reply of `userId`'s in a conversation. */
export function personaToolSet(
  persona: { id: string; toolNames: readonly string[]; modelId: string; fallbackModelIds: readonly string[] },
  where: { db: Database; userId: string; conversationId: string },
): ToolSet | undefined {
  return toolSetFor(persona.toolNames, {
    ...where,
    personaId: persona.id,
    personaModelIds: [persona.modelId, ...persona.fallbackModelIds],
  });
}
