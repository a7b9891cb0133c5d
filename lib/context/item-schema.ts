// The stored shapes of a model call's context items and trace events (types.ts), as zod schemas: for what comes
// from outside rather than from the pipeline (an imported archive's attempts, docs/features.md, "Export and
// import"). Every field the readers use (the inspector, the views, the JSONL export, redaction) is checked; fields
// this version does not know are kept as they are, so an archive round-trips unchanged.

import { z } from "zod";
import { AUTHOR_TYPES, type ContextItem, ITEM_TAGS, MEDIA_KINDS } from "@/lib/domain/types";

const text = z.string().max(2_000_000);
const name = z.string().max(1_000);
const count = z.number().int().nonnegative();

const providerMetadataSchema = z.record(z.string(), z.record(z.string(), z.unknown()));

export const mediaDescriptorSchema = z.looseObject({
  handle: name,
  attachmentId: name,
  kind: z.enum(MEDIA_KINDS),
  mime: name,
  url: text,
  sha256: name,
  state: z.enum(["render", "out_of_window"]),
  attributedTo: name.nullable().optional(),
  senderName: name,
  messageSeq: count,
  filename: name.nullable().optional(),
  sizeBytes: count.optional(),
  counted: z.boolean().optional(),
});

const itemPartSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("text"), text, providerMetadata: providerMetadataSchema.optional() }),
  z.looseObject({ type: z.literal("media"), descriptor: mediaDescriptorSchema }),
  z.looseObject({
    type: z.enum(MEDIA_KINDS),
    mediaType: name,
    url: text,
    attachmentId: name,
    handle: name,
    filename: name.optional(),
    sizeBytes: count.optional(),
  }),
  z.looseObject({
    type: z.literal("tool-call"),
    toolCallId: name,
    toolName: name,
    input: z.unknown(),
    providerMetadata: providerMetadataSchema.optional(),
  }),
  z.looseObject({
    type: z.literal("tool-result"),
    toolCallId: name,
    toolName: name,
    output: z.unknown(),
    providerMetadata: providerMetadataSchema.optional(),
  }),
  z.looseObject({ type: z.literal("reasoning"), text, providerMetadata: providerMetadataSchema.optional() }),
]);

export const contextItemSchema = z.looseObject({
  id: name,
  role: z.enum(["system", "user", "assistant", "tool"]),
  tag: z.enum(ITEM_TAGS),
  parts: z.array(itemPartSchema).max(10_000),
  sourceMessageIds: z.array(name).max(100_000),
  sender: z
    .looseObject({
      type: z.enum(AUTHOR_TYPES),
      name,
      userId: name.nullable().optional(),
      personaId: name.nullable().optional(),
    })
    .optional(),
  mediaDescriptors: z.array(mediaDescriptorSchema).max(10_000).optional(),
  tokens: count,
  cacheBreakpoint: z.enum(["system", "summary", "history"]).optional(),
  /** Set on a reader's view when someone else's private memory was replaced in it (lib/chat/attempts/private-memories.ts). */
  redacted: z.literal(true).optional(),
});

// The schema describes the type the pipeline writes: a change to ContextItem that the schema misses fails here.
({}) as z.infer<typeof contextItemSchema> satisfies ContextItem;

export const traceEventSchema = z.looseObject({
  /** A stage name (types.ts StageName); any name, so traces of stages since renamed still read. */
  stage: z.string().min(1).max(100),
  action: z.string().max(200),
  reason: text,
  level: z.enum(["info", "warning"]).optional(),
  itemIds: z.array(name).max(100_000).optional(),
  messageIds: z.array(name).max(100_000).optional(),
  counts: z.record(z.string(), z.number()).optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});
