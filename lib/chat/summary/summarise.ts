// Summarisation, server side: decide (summary-decision.ts, on planSummary), write the summary with the summary
// model (each try an attempt of kind "summary"), and store it in one transaction (summary row, superseded
// predecessor, covered messages marked, the session_summary memory). The current input is stored before this runs
// and counts as the newest user turn, as the summariser it follows does, so it is always among the kept turns. An
// empty or failed summary changes nothing and comes back as a trace warning for the turn's inspector.

import "server-only";
import type { Database } from "@/db/client";
import { keepsSessionSummaries } from "@/db/memory-queries";
import { listArtifactsForMessages } from "@/db/message-queries";
import { getModel } from "@/db/model-queries";
import type { Conversation, Persona, Summary } from "@/db/schema";
import { getCurrentSettings } from "@/db/settings-queries";
import { getActiveSummary, storeSummary } from "@/db/summary-queries";
import { runAuxiliaryCall } from "@/lib/chat/attempts/auxiliary-call";
import { resolveTurnSettings } from "@/lib/chat/turn/load-turn-input";
import { toModelDescriptor, toStoredArtifact } from "@/lib/chat/turn/stored-rows";
import { callableModel, unavailableModelMessage } from "@/lib/chat/turn/turn-setup";
import { env } from "@/lib/config/env";
import { messageText } from "@/lib/context/collapse-runs";
import { summaryMarkerText } from "@/lib/context/summary-placement";
import { buildSummariserInput, truncateForSummary } from "@/lib/context/summary-plan";
import { countTextTokens, TOKENS_PER_MESSAGE } from "@/lib/context/tokens";
import { plural, traceEvent, traceWarning } from "@/lib/context/trace";
import type { ResolvedSettings } from "@/lib/domain/settings";
import type { StoredMessage, StoredSummary, TokenizerName, TraceEvent } from "@/lib/domain/types";
import { logger } from "@/lib/logger";
import { offlineSummary } from "@/lib/providers/offline-summary";
import { decideSummary, type PreloadedSummaryInputs, type SummaryTarget, withKeep } from "./summary-decision";

export interface SummaryOutcome {
  status: "summarised" | "skipped" | "failed";
  summary: Summary | null;
  /** Why, in a sentence (for a 409 or a failure message). */
  reason: string;
  /** Trace events for the turn: one on success or failure, none when nothing needed doing. */
  events: TraceEvent[];
}

/** A summary blocks the turn that triggered it: one try gives up rather than hold the reply for ever. */

/** Used for the token estimate when the persona's model row is gone (the summary can still be made). */
const FALLBACK_ESTIMATE_MODEL = {
  contextWindow: 128_000,
  maxOutputTokens: 4_096,
  tokenizer: "o200k_base" as TokenizerName,
};

export async function summariseConversation(
  request: SummaryTarget & {
    now?: Date;
    /** A one-off keepRecentTurns for a manual compact. */
    keepRecentTurns?: number;
  },
): Promise<SummaryOutcome> {
  const { db, conversation, persona, trigger, now = new Date(), keepRecentTurns, preloaded } = request;
  const [globalSettings, active, personaModel] = preloaded
    ? [preloaded.globalSettings, preloaded.activeSummary, preloaded.personaModel]
    : await Promise.all([
        getCurrentSettings({ db }),
        getActiveSummary({ db, conversationId: conversation.id }),
        getModel({ db, modelId: persona.modelId }),
      ]);
  const settings = withKeep(
    resolveTurnSettings(globalSettings.settings, persona, conversation).settings,
    keepRecentTurns,
  );
  const estimateModel = personaModel ?? FALLBACK_ESTIMATE_MODEL;
  const decision = await decideSummary({ ...request, settings, estimateModel, active });
  if ("skipped" in decision) return skipped(decision.skipped);
  const { decided, why, deciding, keptTurns, previous } = decision;
  if (!decided.plan.shouldSummarise || decided.plan.coversThroughSeq === null)
    return skipped(decided.plan.reason);

  const coverIds = new Set(decided.plan.coverMessageIds);
  const covered = decided.messages.filter((message) => coverIds.has(message.id));
  const written = await writeSummary({
    db,
    conversationId: conversation.id,
    modelId: settings.summary.modelId ?? persona.modelId,
    settings,
    settingsVersion: globalSettings.version,
    covered,
    previous,
  });
  if ("failure" in written) return failed(written.failure);
  const { content, summaryModelId } = written;

  const messageCount = (previous?.messageCount ?? 0) + covered.length;
  const tokenizer = estimateModel.tokenizer;
  let tokensBefore = previous ? TOKENS_PER_MESSAGE + countTextTokens(previous.content, tokenizer) : 0;
  for (const message of covered) tokensBefore += messageTokens(message, tokenizer);
  const tokensAfter =
    TOKENS_PER_MESSAGE +
    countTextTokens(summaryMarkerText({ content, createdAt: now.toISOString(), messageCount }), tokenizer);
  const stored = await storeSummary({
    db,
    expectedPreviousId: active?.id ?? null,
    memoryOwner: (await keepsSessionSummaries({ db, userId: conversation.ownerId }))
      ? { userId: conversation.ownerId, personaId: persona.id }
      : null,
    summary: {
      conversationId: conversation.id,
      content,
      coversThroughSeq: decided.plan.coversThroughSeq,
      messageCount,
      modelId: summaryModelId,
      tokensBefore,
      tokensAfter,
      trigger: trigger === "manual" ? "manual" : trigger === "overflow" ? "token" : settings.summary.mode,
      createdAt: now,
    },
  });
  if (!stored)
    return failed("another summary of this conversation was stored meanwhile; this one was dropped");

  const first = covered[0]?.seq ?? decided.plan.coversThroughSeq;
  return {
    status: "summarised",
    summary: stored.summary,
    reason: why,
    events: [
      traceEvent(
        "summary",
        "summarised",
        `${why}: summarised ${plural(covered.length, "message")} (#${first}–#${decided.plan.coversThroughSeq}), kept the last ${keptTurns} user turns from #${decided.plan.keptFromSeq}`,
        {
          counts: {
            messages: covered.length,
            coversThroughSeq: decided.plan.coversThroughSeq,
            tokensBefore,
            tokensAfter,
            estimatedTokens: deciding.estimatedTokens,
            thresholdTokens: deciding.thresholdTokens,
            userTurns: deciding.userTurns,
          },
          details: {
            summaryId: stored.summary.id,
            trigger: stored.summary.trigger,
            modelId: summaryModelId,
          },
        },
      ),
    ],
  };
}

/** The summary model writes the summary (each try an attempt of kind "summary"), or the reason it did not. */
async function writeSummary({
  db,
  conversationId,
  modelId,
  settings,
  settingsVersion,
  covered,
  previous,
}: {
  db: Database;
  conversationId: string;
  modelId: string;
  settings: ResolvedSettings;
  settingsVersion: number;
  covered: StoredMessage[];
  previous: StoredSummary | null;
}): Promise<{ content: string; summaryModelId: string } | { failure: string }> {
  const modelRow = await callableModel(db, modelId);
  if (!modelRow) return { failure: unavailableModelMessage(`the summary model ${modelId}`) };
  const model = toModelDescriptor(modelRow);
  const inputMessages = newestWithinChars(covered, Math.max(20_000, model.contextWindow * 2));
  const artifactRows = await listArtifactsForMessages({
    db,
    messageIds: inputMessages.map((message) => message.id),
  });
  const input = buildSummariserInput({
    messages: inputMessages,
    previousSummary: previous,
    artifacts: artifactRows.map(toStoredArtifact),
  });
  const outcome = await runAuxiliaryCall({
    db,
    conversationId,
    kind: "summary",
    models: [model],
    context: { items: [], trace: [], settings },
    settingsVersion,
    prepare: () => ({ instructions: input.system, prompt: input.prompt }),
    // The offline model summarises extractively: compaction works without a provider key.
    offlineText: () => offlineSummary({ messages: covered, previousSummary: previous }),
    timeoutMs: env().GLASSBOX_SUMMARY_TIMEOUT_MS,
  });
  if (outcome.status !== "ok") {
    // The message only: the error object carries the request body, which is conversation content.
    logger.warn({ error: outcome.error.message, conversationId, modelId: model.id }, "summary failed");
    // The error is a sentence; here it is a clause of the summary's warning.
    return { failure: `the summary model ${model.id} failed: ${outcome.error.message.replace(/\.$/, "")}` };
  }
  const content = outcome.value.text.trim();
  if (content === "") return { failure: `the summary model ${model.id} returned an empty summary` };
  return { content, summaryModelId: model.id };
}

/**
 * Before a turn: summarise when `summary.mode` says so. Never throws: a summary is an
 * optimisation, so whatever goes wrong the turn goes on, and the trace says why there was no summary.
 */
export async function maybeSummariseBeforeTurn({
  db,
  conversation,
  persona,
  now = new Date(),
  preloaded,
}: {
  db: Database;
  conversation: Conversation;
  persona: Persona;
  now?: Date;
  preloaded?: PreloadedSummaryInputs;
}): Promise<{ events: TraceEvent[]; summarised: boolean }> {
  try {
    const outcome = await summariseConversation({
      db,
      conversation,
      persona,
      trigger: "auto",
      now,
      preloaded,
    });
    return { events: outcome.events, summarised: outcome.status === "summarised" };
  } catch (error) {
    logger.error({ err: error, conversationId: conversation.id }, "summary before turn failed");
    const reason = `summarising failed on the server: ${error instanceof Error ? error.message : String(error)}`;
    return { events: [failedEvent(reason)], summarised: false };
  }
}

function skipped(reason: string): SummaryOutcome {
  return { status: "skipped", summary: null, reason, events: [] };
}

function failedEvent(reason: string): TraceEvent {
  return traceWarning("summary", "summary-failed", `${reason}; nothing was summarised`);
}

function failed(reason: string): SummaryOutcome {
  return { status: "failed", summary: null, reason, events: [failedEvent(reason)] };
}

function messageTokens(message: StoredMessage, tokenizer: TokenizerName): number {
  return (
    TOKENS_PER_MESSAGE +
    (message.tokenCounts?.[tokenizer] ?? countTextTokens(messageText(message), tokenizer))
  );
}

/**
 * The newest covered messages whose truncated text fits the summary model (about half its window, at ~4 characters
 * a token). Older ones are still covered; they were long out of the model's view anyway.
 */
function newestWithinChars(messages: readonly StoredMessage[], maxChars: number): StoredMessage[] {
  let total = 0;
  let start = messages.length;
  while (start > 0) {
    const size = truncateForSummary(messageText(messages[start - 1])).length + 40;
    if (total + size > maxChars && start < messages.length) break;
    total += size;
    start -= 1;
  }
  return messages.slice(start);
}
