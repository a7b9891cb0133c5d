// Summarisation, server side: decide with planSummary, write the summary with the summary
// model, and store it in one transaction (summary row, superseded predecessor, covered messages marked, the
// session_summary memory). The current input is stored before this runs and counts as the newest user turn, as the summariser it follows does,
// so it is always among the kept turns. An empty or failed summary changes nothing and comes back as a
// trace warning for the turn's inspector.

import type { Database } from "@/db/client";
import { keepsSessionSummaries } from "@/db/memory-queries";
import {
  getActiveSummary,
  getCurrentSettings,
  getModel,
  listArtifactsForMessages,
  listHistoryWindow,
} from "@/db/queries";
import type { Conversation, Message, Model, Persona, SettingsVersion, Summary } from "@/db/schema";
import { countUnsummarisedUserTurns, listUnsummarisedMessages, storeSummary } from "@/db/summary-queries";
import { messageText } from "@/lib/context/collapse-runs";
import type { ResolvedSettings } from "@/lib/context/settings";
import { summaryMarkerText } from "@/lib/context/summary-placement";
import {
  buildSummariserInput,
  planSummary,
  type SummaryPlan,
  truncateForSummary,
} from "@/lib/context/summary-plan";
import { countTextTokens, TOKENS_PER_MESSAGE } from "@/lib/context/tokens";
import { plural, traceEvent, traceWarning } from "@/lib/context/trace";
import type { StoredMessage, TokenizerName, TraceEvent } from "@/lib/context/types";
import { logger } from "@/lib/logger";
import { isProviderConfigured } from "@/lib/providers/language-model";
import { resolveTurnSettings } from "./load-turn-input";
import { toModelDescriptor, toStoredArtifact, toStoredMessage, toStoredSummary } from "./stored-rows";
import { callSummariser } from "./summary-model-call";

/**
 * auto: before a turn, as `summary.mode` says (never in manual mode). manual: the Compact button or API, whatever
 * the mode. overflow: the in-loop fallback when the context does not fit the model (stored as a token trigger).
 */
export type SummaryRequest = "auto" | "manual" | "overflow";

export interface SummaryOutcome {
  status: "summarised" | "skipped" | "failed";
  summary: Summary | null;
  /** Why, in a sentence (for a 409 or a failure message). */
  reason: string;
  /** Trace events for the turn: one on success or failure, none when nothing needed doing. */
  events: TraceEvent[];
}

/** Used for the token estimate when the persona's model row is gone (the summary can still be made). */
const FALLBACK_ESTIMATE_MODEL = {
  contextWindow: 128_000,
  maxOutputTokens: 4_096,
  tokenizer: "o200k_base" as TokenizerName,
};

/**
 * The rows a turn has just loaded that the summary check needs: with them, deciding whether to summarise costs no
 * query (token mode; turn mode still counts the turns). `windowRows` is the turn's window, newest
 * `history.messageFetchLimit` unsummarised messages with the stored current input, in seq order.
 */
export interface PreloadedSummaryInputs {
  globalSettings: SettingsVersion;
  activeSummary: Summary | null;
  windowRows: Message[];
  /** The persona's own model row (its window and tokenizer drive the estimate), null when it does not exist. */
  personaModel: Model | null;
  /** Unsummarised messages the turn's load left out (beyond `history.messageFetchLimit`), 0 when none. */
  omittedByFetchLimit?: number;
}

export async function summariseConversation({
  db,
  conversation,
  persona,
  trigger,
  now = new Date(),
  keepRecentTurns,
  preloaded,
}: {
  db: Database;
  conversation: Conversation;
  persona: Persona;
  trigger: SummaryRequest;
  now?: Date;
  /** A one-off keepRecentTurns for a manual compact. */
  keepRecentTurns?: number;
  /** What the turn already loaded (its settings, active summary and window): not loaded again. */
  preloaded?: PreloadedSummaryInputs;
}): Promise<SummaryOutcome> {
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
  const previous = active ? toStoredSummary(active) : null;
  const afterSeq = active?.coversThroughSeq ?? 0;

  const promptTokens = systemTokens(persona, conversation, settings, estimateModel.tokenizer);
  const plan = (
    rows: Message[],
    manual: boolean,
    keep?: number,
  ): { messages: StoredMessage[]; plan: SummaryPlan } => {
    const messages = rows.map(toStoredMessage);
    return {
      messages,
      plan: planSummary({
        messages,
        summary: previous,
        settings: withKeep(settings, keep),
        model: estimateModel,
        systemTokens: promptTokens,
        // The stored current input is among the messages: counted once there, and always kept.
        currentInputTokens: 0,
        manual,
      }),
    };
  };

  // Decide cheaply first: only a summary about to be made loads every unsummarised message.
  let decided: { messages: StoredMessage[]; plan: SummaryPlan };
  let why: string;
  /** The plan that decided (token mode decides on the window, then covers every unsummarised message). */
  let deciding: SummaryPlan;
  /** How many recent user turns stay verbatim (fewer than keepRecentTurns when the fetch limit forces it). */
  let keptTurns = settings.summary.keepRecentTurns;
  if (trigger !== "auto") {
    decided = plan(await listUnsummarisedMessages({ db, conversationId: conversation.id, afterSeq }), true);
    why = trigger === "manual" ? "summary requested" : "the context did not fit the model's budget";
    deciding = decided.plan;
  } else if (settings.summary.mode === "manual") {
    return skipped("summary mode is manual: only the Compact button or API summarises");
  } else if ((preloaded?.omittedByFetchLimit ?? 0) > 0) {
    // Messages past the fetch limit would leave the model's view with no trace in the payload: summarise them
    // first, whatever the token or turn count says.
    // The turns kept verbatim are at most those the load still holds: a keepRecentTurns larger than the fetch
    // window would otherwise leave nothing to summarise, and the omitted messages would be lost unsummarised.
    const rows = await listUnsummarisedMessages({ db, conversationId: conversation.id, afterSeq });
    const windowFromSeq = Math.min(...(preloaded?.windowRows ?? []).map((row) => row.seq));
    const turnsInWindow = rows.filter(
      (row, index) =>
        row.seq >= windowFromSeq &&
        row.authorType === "user" &&
        (index === 0 || rows[index - 1].authorType !== "user"),
    ).length;
    keptTurns = Math.max(1, Math.min(settings.summary.keepRecentTurns, turnsInWindow));
    decided = plan(rows, true, keptTurns);
    why = `${plural(preloaded?.omittedByFetchLimit ?? 0, "older message")} no longer fit history.messageFetchLimit (${settings.history.messageFetchLimit})`;
    deciding = decided.plan;
  } else if (settings.summary.mode === "turn") {
    const turns = await countUnsummarisedUserTurns({ db, conversationId: conversation.id, afterSeq });
    if (turns < settings.summary.turnThreshold) {
      return skipped(`${turns} user turns is under the threshold of ${settings.summary.turnThreshold}`);
    }
    decided = plan(await listUnsummarisedMessages({ db, conversationId: conversation.id, afterSeq }), false);
    why = `${decided.plan.userTurns} user turns reaches the threshold of ${settings.summary.turnThreshold}`;
    deciding = decided.plan;
  } else {
    // Token mode estimates what a turn would send: the same bounded window the turn loads.
    const limit = settings.history.messageFetchLimit;
    const windowRows =
      preloaded?.windowRows ??
      (await listHistoryWindow({ db, conversationId: conversation.id, afterSeq, limit }));
    const windowed = plan(windowRows, false);
    if (!windowed.plan.shouldSummarise) return skipped(windowed.plan.reason);
    deciding = windowed.plan;
    why = `estimated ${windowed.plan.estimatedTokens} tokens reaches the threshold of ${windowed.plan.thresholdTokens} (${settings.summary.thresholdPercent}% of the usable window)`;
    decided =
      windowRows.length < limit
        ? windowed
        : plan(await listUnsummarisedMessages({ db, conversationId: conversation.id, afterSeq }), true);
  }
  if (!decided.plan.shouldSummarise || decided.plan.coversThroughSeq === null)
    return skipped(decided.plan.reason);

  const coverIds = new Set(decided.plan.coverMessageIds);
  const covered = decided.messages.filter((message) => coverIds.has(message.id));
  const summaryModelId = settings.summary.modelId ?? persona.modelId;
  const summaryModelRow = await getModel({ db, modelId: summaryModelId });
  if (!summaryModelRow?.enabled || !isProviderConfigured(summaryModelRow.provider)) {
    return failed(
      `the summary model ${summaryModelId} is unknown, disabled or its provider is not configured`,
    );
  }
  const summaryModel = toModelDescriptor(summaryModelRow);
  const inputMessages = newestWithinChars(covered, Math.max(20_000, summaryModel.contextWindow * 2));
  const artifactRows = await listArtifactsForMessages({
    db,
    messageIds: inputMessages.map((message) => message.id),
  });
  const input = buildSummariserInput({
    messages: inputMessages,
    previousSummary: previous,
    artifacts: artifactRows.map(toStoredArtifact),
  });

  let content: string;
  try {
    content = (
      await callSummariser({ model: summaryModel, input, messages: covered, previousSummary: previous })
    ).trim();
  } catch (error) {
    // The message only: the error object carries the request body, which is conversation content.
    const message = error instanceof Error ? error.message : String(error);
    logger.warn(
      { error: message, conversationId: conversation.id, modelId: summaryModel.id },
      "summary failed",
    );
    return failed(`the summary model ${summaryModel.id} failed: ${message}`);
  }
  if (content === "") return failed(`the summary model ${summaryModel.id} returned an empty summary`);

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
      modelId: summaryModel.id,
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
            modelId: summaryModel.id,
          },
        },
      ),
    ],
  };
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

function withKeep(settings: ResolvedSettings, keepRecentTurns: number | undefined): ResolvedSettings {
  if (keepRecentTurns === undefined) return settings;
  return { ...settings, summary: { ...settings.summary, keepRecentTurns } };
}

/** The system prompt's share of the token estimate: the persona's prompt, conversation instructions, reminder. */
export function systemTokens(
  persona: Pick<Persona, "systemPrompt">,
  conversation: Pick<Conversation, "instructions">,
  settings: ResolvedSettings,
  tokenizer: TokenizerName,
): number {
  const text = [persona.systemPrompt, conversation.instructions ?? "", settings.keyContextReminder]
    .filter((part) => part.trim() !== "")
    .join("\n\n");
  return text === "" ? 0 : countTextTokens(text, tokenizer);
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
