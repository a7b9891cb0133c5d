// Whether to summarise a conversation now, and what: decided cheaply first (the window a turn already loaded, or a
// count), so only a summary about to be made loads every unsummarised message. The policy is planSummary's.

import "server-only";
import type { Database } from "@/db/client";
import { listHistoryWindow } from "@/db/message-queries";
import type { Conversation, Message, Model, Persona, SettingsVersion, Summary } from "@/db/schema";
import { countUnsummarisedUserTurns, listUnsummarisedMessages } from "@/db/summary-queries";
import { toStoredMessage, toStoredSummary } from "@/lib/chat/turn/stored-rows";
import { planSummary, type SummaryPlan } from "@/lib/context/summary-plan";
import { countTextTokens } from "@/lib/context/tokens";
import { plural } from "@/lib/context/trace";
import type { ResolvedSettings } from "@/lib/domain/settings";
import type { StoredMessage, StoredSummary, TokenizerName } from "@/lib/domain/types";

/**
 * auto: before a turn, as `summary.mode` says (never in manual mode). manual: the Compact button or API, whatever
 * the mode. overflow: the in-loop fallback when the context does not fit the model (stored as a token trigger).
 */
export type SummaryRequest = "auto" | "manual" | "overflow";

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

/** Which conversation to summarise and why: deciding reads the same request. */
export interface SummaryTarget {
  db: Database;
  conversation: Conversation;
  persona: Persona;
  trigger: SummaryRequest;
  /** What the turn already loaded (its settings, active summary and window): not loaded again. */
  preloaded?: PreloadedSummaryInputs;
}

interface PlannedMessages {
  messages: StoredMessage[];
  plan: SummaryPlan;
}

export type SummaryDecision =
  | { skipped: string }
  | {
      decided: PlannedMessages;
      /** Why, in a sentence. */
      why: string;
      /** The plan that decided (token mode decides on the window, then covers every unsummarised message). */
      deciding: SummaryPlan;
      /** How many recent user turns stay verbatim (fewer than keepRecentTurns when the fetch limit forces it). */
      keptTurns: number;
      previous: StoredSummary | null;
    };

/** Whether to summarise, and what: cheaply first, so only a summary about to be made loads every message. */
export async function decideSummary({
  db,
  conversation,
  persona,
  trigger,
  settings,
  estimateModel,
  active,
  preloaded,
}: SummaryTarget & {
  settings: ResolvedSettings;
  estimateModel: { contextWindow: number; maxOutputTokens: number; tokenizer: TokenizerName };
  active: Summary | null;
}): Promise<SummaryDecision> {
  const previous = active ? toStoredSummary(active) : null;
  const afterSeq = active?.coversThroughSeq ?? 0;
  const promptTokens = systemTokens(persona, conversation, settings, estimateModel.tokenizer);
  const plan = (rows: Message[], manual: boolean, keep?: number): PlannedMessages => {
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
  const allUnsummarised = () => listUnsummarisedMessages({ db, conversationId: conversation.id, afterSeq });
  const keptTurns = settings.summary.keepRecentTurns;

  if (trigger !== "auto") {
    const decided = plan(await allUnsummarised(), true);
    const why = trigger === "manual" ? "summary requested" : "the context did not fit the model's budget";
    return { decided, why, deciding: decided.plan, keptTurns, previous };
  }
  if (settings.summary.mode === "manual") {
    return { skipped: "summary mode is manual: only the Compact button or API summarises" };
  }
  const omitted = preloaded?.omittedByFetchLimit ?? 0;
  if (omitted > 0) {
    // Messages past the fetch limit would leave the model's view with no trace in the payload: summarise them
    // first, whatever the token or turn count says.
    // The turns kept verbatim are at most those the load still holds: a keepRecentTurns larger than the fetch
    // window would otherwise leave nothing to summarise, and the omitted messages would be lost unsummarised.
    const rows = await allUnsummarised();
    const windowFromSeq = Math.min(...(preloaded?.windowRows ?? []).map((row) => row.seq));
    const turnsInWindow = rows.filter(
      (row, index) =>
        row.seq >= windowFromSeq &&
        row.authorType === "user" &&
        (index === 0 || rows[index - 1].authorType !== "user"),
    ).length;
    const kept = Math.max(1, Math.min(settings.summary.keepRecentTurns, turnsInWindow));
    const decided = plan(rows, true, kept);
    const why = `${plural(omitted, "older message")} no longer fit history.messageFetchLimit (${settings.history.messageFetchLimit})`;
    return { decided, why, deciding: decided.plan, keptTurns: kept, previous };
  }
  if (settings.summary.mode === "turn") {
    const turns = await countUnsummarisedUserTurns({ db, conversationId: conversation.id, afterSeq });
    if (turns < settings.summary.turnThreshold) {
      return { skipped: `${turns} user turns is under the threshold of ${settings.summary.turnThreshold}` };
    }
    const decided = plan(await allUnsummarised(), false);
    const why = `${decided.plan.userTurns} user turns reaches the threshold of ${settings.summary.turnThreshold}`;
    return { decided, why, deciding: decided.plan, keptTurns, previous };
  }
  // Token mode estimates what a turn would send: the same bounded window the turn loads.
  const limit = settings.history.messageFetchLimit;
  const windowRows =
    preloaded?.windowRows ??
    (await listHistoryWindow({ db, conversationId: conversation.id, afterSeq, limit }));
  const windowed = plan(windowRows, false);
  if (!windowed.plan.shouldSummarise) return { skipped: windowed.plan.reason };
  const why = `estimated ${windowed.plan.estimatedTokens} tokens reaches the threshold of ${windowed.plan.thresholdTokens} (${settings.summary.thresholdPercent}% of the usable window)`;
  const decided = windowRows.length < limit ? windowed : plan(await allUnsummarised(), true);
  return { decided, why, deciding: windowed.plan, keptTurns, previous };
}

export function withKeep(settings: ResolvedSettings, keepRecentTurns: number | undefined): ResolvedSettings {
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
