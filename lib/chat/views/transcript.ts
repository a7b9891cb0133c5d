// The transcript a reader sees: the chosen path of the conversation (every message, summarised or not, with the
// variant of each reply the user chose), the other variants of each reply, and where the model's view begins when
// the latest request left older messages out (docs/features.md, "Nothing leaves the model's view unmarked").

import "server-only";
import { and, asc, eq, isNotNull } from "drizzle-orm";
import { listMessageMedia, type MediaFacts } from "@/db/attachment-queries";
import type { Database } from "@/db/client";
import {
  getLatestAttemptView,
  listMessages,
  listReasoningByMessage,
  listToolNamesByMessage,
} from "@/db/message-queries";
import { questionVersions } from "@/db/message-tree-queries";
import { listReplyVariants, type ReplyVariant } from "@/db/message-variant-queries";
import { attempts, type Message, turns } from "@/db/schema";
import { type ReasoningView, reasoningView } from "./reasoning-view";

/** Why the model did not see the messages before `firstMessageId` in the latest request. */
export interface ModelViewStart {
  firstMessageId: string;
  /** Messages of the chosen path, not summarised, that came before it and were not sent. */
  hiddenCount: number;
  reasons: { kind: "fetch-limit" | "window" | "budget"; text: string }[];
}

export interface Transcript {
  messages: Omit<Message, "tokenCounts" | "segmentTokenCounts">[];
  media: Map<string, MediaFacts>;
  toolNames: Map<string, string[]>;
  /** By reply id: how long the model thought and what (a reply without stored reasoning has none). */
  reasoning: Map<string, ReasoningView>;
  /** By the user message the reply answers: its variants, oldest first (only replies with several). */
  variants: Map<string, ReplyVariant[]>;
  /** By the id of each version of a question that has several (edits that forked it): all of them, oldest first. */
  questionVersions: Map<string, string[]>;
  /** By reply id: the model that answered it, and the model it fell back from when the first one failed. */
  replyModels: Map<string, ReplyModel>;
  modelView: ModelViewStart | null;
}

export interface ReplyModel {
  modelId: string;
  fallbackFromModelId: string | null;
}

export async function loadTranscript({
  db,
  conversationId,
}: {
  db: Database;
  conversationId: string;
}): Promise<Transcript> {
  const [rows, media, toolNames, reasoningPayloads, variants, latest, replyModels] = await Promise.all([
    listMessages({ db, conversationId }),
    listMessageMedia({ db, conversationId }),
    listToolNamesByMessage({ db, conversationId }),
    listReasoningByMessage({ db, conversationId }),
    listReplyVariants({ db, conversationId }),
    getLatestAttemptView({ db, conversationId }),
    listReplyModels(db, conversationId),
  ]);
  const chosen = rows
    .filter((row) => row.chosen)
    .map(({ tokenCounts: _tokenCounts, segmentTokenCounts: _segments, ...message }) => message);
  return {
    messages: chosen,
    media,
    toolNames,
    reasoning: reasoningByMessage(reasoningPayloads),
    variants,
    questionVersions: questionVersions(rows),
    replyModels,
    modelView: latest ? modelViewStart(chosen, latest.items, latest.trace) : null,
  };
}

function reasoningByMessage(payloads: Map<string, Record<string, unknown>[]>): Map<string, ReasoningView> {
  const views = new Map<string, ReasoningView>();
  for (const [messageId, blocks] of payloads) {
    const view = reasoningView(blocks);
    if (view !== null) views.set(messageId, view);
  }
  return views;
}

interface TraceLike {
  stage?: string;
  action?: string;
  reason?: string;
}

/** The reasons the pipeline gave for leaving history out, by the trace actions that say so. */
const HIDING_ACTIONS: Record<string, ModelViewStart["reasons"][number]["kind"]> = {
  "load/fetch-limit": "fetch-limit",
  "window/windowed": "window",
  "budget/dropped-oldest-turns": "budget",
  "budget/not-built": "budget",
};

/**
 * The first message of the chosen path the latest request sent, when unsummarised messages before it were left
 * out, with the pipeline's reasons. Null when the model saw everything not summarised.
 */
export function modelViewStart(
  messages: Pick<Message, "id" | "seq" | "summarizedBy" | "authorType">[],
  items: unknown[],
  trace: unknown[],
): ModelViewStart | null {
  const sent = new Set<string>();
  for (const item of items as { sourceMessageIds?: unknown }[]) {
    if (!Array.isArray(item?.sourceMessageIds)) continue;
    for (const id of item.sourceMessageIds) if (typeof id === "string") sent.add(id);
  }
  const unsummarised = messages.filter((message) => message.summarizedBy === null);
  const firstSent = unsummarised.findIndex((message) => sent.has(message.id));
  if (firstSent <= 0) return null;
  const reasons: ModelViewStart["reasons"] = [];
  for (const event of trace as TraceLike[]) {
    const kind = HIDING_ACTIONS[`${event?.stage}/${event?.action}`];
    if (kind && !reasons.some((reason) => reason.kind === kind)) {
      reasons.push({ kind, text: event.reason ?? kind });
    }
  }
  if (reasons.length === 0) return null;
  return { firstMessageId: unsummarised[firstSent].id, hiddenCount: firstSent, reasons };
}

/** Each reply's answering model (its successful attempt's) and its first attempt's model when that differs. */
async function listReplyModels(db: Database, conversationId: string): Promise<Map<string, ReplyModel>> {
  const rows = await db
    .select({
      messageId: turns.assistantMessageId,
      modelId: attempts.modelId,
      status: attempts.status,
    })
    .from(attempts)
    .innerJoin(turns, eq(turns.id, attempts.turnId))
    .where(
      and(
        eq(attempts.conversationId, conversationId),
        eq(attempts.kind, "reply"),
        isNotNull(turns.assistantMessageId),
      ),
    )
    .orderBy(asc(attempts.attemptNumber), asc(attempts.stepNumber));
  const firstModel = new Map<string, string>();
  const replyModels = new Map<string, ReplyModel>();
  for (const row of rows) {
    if (row.messageId === null) continue;
    if (!firstModel.has(row.messageId)) firstModel.set(row.messageId, row.modelId);
    if (row.status !== "ok" || replyModels.has(row.messageId)) continue;
    const first = firstModel.get(row.messageId) ?? row.modelId;
    replyModels.set(row.messageId, {
      modelId: row.modelId,
      fallbackFromModelId: first !== row.modelId ? first : null,
    });
  }
  return replyModels;
}
