// Summary planning, as pure functions the route calls before building the
// context. Modes are exclusive: token (the estimate of system + history + current input, × 1.15, reaches
// thresholdPercent of the usable window), turn (user turns reach turnThreshold), manual (only when asked). A
// summary keeps the last keepRecentTurns user turns, and everything after the first of them, verbatim, and covers
// everything before; the previous summary's content goes into the summariser input, so summaries chain.

import { type ResolvedSettings, reservedOutputTokens } from "@/lib/domain/settings";
import type { StoredArtifact, StoredMessage, StoredSummary, TokenizerName } from "@/lib/domain/types";
import { elementAt, lastOf } from "./indexing";
import { messageText } from "./messages";
import { countTextTokens, TOKENS_PER_MESSAGE } from "./tokens";

/** Seed 002: the estimate is padded by 15% for what a count misses (framing, tool schemas, notices). */
export const TOKEN_ESTIMATE_PADDING = 1.15;

export interface SummaryPlan {
  shouldSummarise: boolean;
  /** Why, in a sentence for the trace and the inspector. */
  reason: string;
  trigger: "token" | "turn" | "manual" | null;
  /** The messages the summary would cover, in seq order (empty when there is nothing to cover). */
  coverMessageIds: string[];
  /** The last covered seq (the new summary's coversThroughSeq), or null. */
  coversThroughSeq: number | null;
  /** The first seq kept verbatim, or null. */
  keptFromSeq: number | null;
  /** Token mode's padded estimate (computed in every mode, for the inspector). */
  estimatedTokens: number;
  thresholdTokens: number;
  userTurns: number;
}

/**
 * Where each user turn starts: a human's message whose previous message is not a human's (consecutive user
 * messages share one turn). Summaries are not messages here, so they never count.
 */
export function userTurnStarts(messages: readonly StoredMessage[]): number[] {
  const starts: number[] = [];
  let previousIsUser = false;
  messages.forEach((message, index) => {
    const isUser = message.authorType === "user";
    if (isUser && !previousIsUser) starts.push(index);
    previousIsUser = isUser;
  });
  return starts;
}

/** (contextWindow − reserved output) × (1 − safety margin). */
export function usableWindow(
  settings: ResolvedSettings,
  model: { contextWindow: number; maxOutputTokens: number },
): number {
  const reserved = reservedOutputTokens(settings, model.maxOutputTokens);
  return Math.max(
    0,
    Math.floor((model.contextWindow - reserved) * (1 - settings.budget.safetyMarginPercent / 100)),
  );
}

function messageTokens(message: StoredMessage, tokenizer: TokenizerName): number {
  const cached = message.tokenCounts?.[tokenizer];
  return TOKENS_PER_MESSAGE + (cached ?? countTextTokens(messageText(message), tokenizer));
}

export function planSummary(args: {
  /**
   * Unsummarised messages in seq order. The current input may be among them (pass its id); it is never covered.
   */
  messages: readonly StoredMessage[];
  summary: StoredSummary | null;
  settings: ResolvedSettings;
  model: { contextWindow: number; maxOutputTokens: number; tokenizer: TokenizerName };
  systemTokens: number;
  currentInputTokens: number;
  currentInputId?: string;
  /** The "Compact now" button or API: summarise whatever the mode, if there is something to cover. */
  manual?: boolean;
}): SummaryPlan {
  const { settings, model } = args;
  const history =
    args.currentInputId === undefined
      ? args.messages
      : args.messages.filter((message) => message.id !== args.currentInputId);

  let historyTokens = 0;
  for (const message of history) historyTokens += messageTokens(message, model.tokenizer);
  if (args.summary !== null)
    historyTokens += TOKENS_PER_MESSAGE + countTextTokens(args.summary.content, model.tokenizer);
  const estimatedTokens = Math.ceil(
    (args.systemTokens + historyTokens + args.currentInputTokens) * TOKEN_ESTIMATE_PADDING,
  );
  const thresholdTokens = Math.floor(
    (usableWindow(settings, model) * settings.summary.thresholdPercent) / 100,
  );

  const starts = userTurnStarts(history);
  const keep = settings.summary.keepRecentTurns;
  const plan: SummaryPlan = {
    shouldSummarise: false,
    reason: "",
    trigger: null,
    coverMessageIds: [],
    coversThroughSeq: null,
    keptFromSeq: null,
    estimatedTokens,
    thresholdTokens,
    userTurns: starts.length,
  };

  let trigger: SummaryPlan["trigger"] = null;
  let why: string;
  if (args.manual) {
    trigger = "manual";
    why = "summary requested";
  } else if (settings.summary.mode === "manual") {
    plan.reason = "summary mode is manual: only the Compact button or API summarises";
    return plan;
  } else if (settings.summary.mode === "token") {
    if (estimatedTokens < thresholdTokens) {
      plan.reason = `estimated ${estimatedTokens} tokens is under the threshold of ${thresholdTokens} (${settings.summary.thresholdPercent}% of the usable window)`;
      return plan;
    }
    trigger = "token";
    why = `estimated ${estimatedTokens} tokens reaches the threshold of ${thresholdTokens} (${settings.summary.thresholdPercent}% of the usable window)`;
  } else {
    if (starts.length < settings.summary.turnThreshold) {
      plan.reason = `${starts.length} user turns is under the threshold of ${settings.summary.turnThreshold}`;
      return plan;
    }
    trigger = "turn";
    why = `${starts.length} user turns reaches the threshold of ${settings.summary.turnThreshold}`;
  }

  if (starts.length <= keep) {
    plan.reason = `${why}, but there are only ${starts.length} user turns and the last ${keep} stay verbatim: nothing to summarise`;
    return plan;
  }
  // More turns than are kept: the cut is a later turn's start, so the cover holds at least the first turn.
  const cut = elementAt(starts, starts.length - keep);
  const cover = history.slice(0, cut);
  plan.shouldSummarise = true;
  plan.trigger = trigger;
  plan.coverMessageIds = cover.map((message) => message.id);
  plan.coversThroughSeq = lastOf(cover).seq;
  plan.keptFromSeq = elementAt(history, cut).seq;
  plan.reason = `${why}: summarise ${cover.length} messages, keep the last ${keep} user turns from #${plan.keptFromSeq}`;
  return plan;
}

// ---------------------------------------------------------------------------------------------------------------
// The summariser call

export const SUMMARISER_SYSTEM_PROMPT = [
  "You summarise a conversation so it can continue without its older messages.",
  "Write a concise summary that keeps:",
  "- the main topics discussed;",
  "- decisions made and their reasons;",
  "- open questions that are still unanswered;",
  "- next steps and plans;",
  "- the user's stated preferences, facts about them, and how they like to be answered;",
  "- the outcomes of tools that were used, when they matter later.",
  "If a previous summary is included, fold it in: the new summary replaces it.",
  "Keep it under 500 words. Output ONLY the summary.",
].join("\n");

export const SUMMARISER_PROMPT_PREFIX = "Summarize this conversation:\n\n";

const TRUNCATE_OVER = 2_000;
const KEEP_HEAD = 1_000;
const KEEP_TAIL = 500;

/** Over 2 000 characters: the first 1 000 + "\n[... truncated ...]\n" + the last 500. */
export function truncateForSummary(text: string): string {
  if (text.length <= TRUNCATE_OVER) return text;
  return `${text.slice(0, KEEP_HEAD)}\n[... truncated ...]\n${text.slice(text.length - KEEP_TAIL)}`;
}

function roleLabel(message: StoredMessage): string {
  switch (message.authorType) {
    case "persona":
      return "ASSISTANT";
    case "user":
      return "USER";
    case "system":
      return "SYSTEM";
    case "tool":
      return "TOOL";
  }
}

/**
 * The summariser's input: the previous summary (if any), then one block per message, `[ROLE] Name: text`, long
 * texts truncated, with the tools the message used; blocks separated by blank lines.
 */
export function buildSummariserInput(args: {
  messages: readonly StoredMessage[];
  previousSummary?: StoredSummary | null;
  artifacts?: readonly StoredArtifact[];
}): { system: string; prompt: string } {
  const toolsByMessage = new Map<string, string[]>();
  for (const artifact of args.artifacts ?? []) {
    if (artifact.type !== "function_call" || typeof artifact.payload.name !== "string") continue;
    const names = toolsByMessage.get(artifact.messageId) ?? [];
    if (!names.includes(artifact.payload.name)) names.push(artifact.payload.name);
    toolsByMessage.set(artifact.messageId, names);
  }
  const blocks: string[] = [];
  if (args.previousSummary && args.previousSummary.content.trim() !== "") {
    blocks.push(`[PREVIOUS SUMMARY]: ${truncateForSummary(args.previousSummary.content.trim())}`);
  }
  for (const message of args.messages) {
    const text = truncateForSummary(messageText(message));
    const tools = toolsByMessage.get(message.id);
    if (text === "" && tools === undefined) continue;
    let block = `[${roleLabel(message)}] ${message.authorName}: ${text}`;
    if (tools !== undefined) block += `  (tools used: ${tools.join(", ")})`;
    blocks.push(block);
  }
  return { system: SUMMARISER_SYSTEM_PROMPT, prompt: `${SUMMARISER_PROMPT_PREFIX}${blocks.join("\n\n")}` };
}
