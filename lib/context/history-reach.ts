// Phase A's reach stage (docs/pipeline.md#reach): history that no attempt of this turn could send is not
// built. The budget stage keeps the newest turns that fit and drops every older turn whole, so once the messages
// from some turn onward already need more than the usable budget of every model the turn may call, every older
// message is certain to be dropped, whatever the model. Building them would only be thrown away: with a long
// history and the fetch limit lifted that is most of the work of both phases.
//
// The test is a lower bound, so the cut is never wrong: a message's cached text count (of the segments that are
// sent, when tool calls split it), less a little slack for how joins tokenise, is never more than what its items
// cost after every stage. Messages that a stage may shrink (a blocked user's, which become one short notice;
// blank text, which is not sent) or that have no cached count count 0. Tool calls, outputs, media, labels and
// framing are left out of the bound (they only add). The cut falls at a turn start (a user-side message right
// after an assistant-side one), so runs, blocks, turn ages and notes see the same newest messages as without it;
// `hiddenMessageIds` carries what the blocks stage needs from the cut part (a reply to a blocked user's message
// loses its annotation either way). The payload of every attempt is the same with or without the cut
// (property-tested); only the trace is shorter, and says how many messages were not built.
//
// Where the oldest history changes what the newest becomes, there is no cut:
// - a strict-alternation model among the attempts: when the loaded history opens with an assistant turn it gets a
//   pinned conversation-start turn, whose tokens the budget sets aside before it keeps any turn, so the oldest
//   message can change how many of the newest fit;
// - a history window (`history.maxItems`): it keeps a leading anchor and counts items from the head;
// - a context note could land at the top: the cut leaves more message runs than the note's depth, so a note's
//   place, counted from the newest item, is the same item in both builds.

import type { ResolvedSettings } from "@/lib/domain/settings";
import type {
  AttemptBudget,
  ModelDescriptor,
  PersonaUserBlock,
  StoredMessage,
  TokenizerName,
} from "@/lib/domain/types";
import { usableTokenBudget } from "./budget-limits";
import { elementAt, lastOf } from "./indexing";
import { hasArtifactParts, hasText, roleFor, sameAuthor } from "./messages";
import { activeBlocksFor } from "./persona-user-blocks";
import type { PhaseAContext, ReachableHistory } from "./phases";
import type { Stage, StageResult } from "./stage";
import { plural, traceEvent } from "./trace";

/** Tokens a message's count may lose when its text is joined to others or wrapped (a newline merging, say). */
export const JOIN_SLACK_TOKENS = 2;

/** The budgets to pass as `BuildInput.attemptBudgets` for the models a turn may call. */
export function attemptBudgetsFor(
  models: readonly Pick<
    ModelDescriptor,
    "tokenizer" | "contextWindow" | "maxOutputTokens" | "capabilities"
  >[],
  settings: ResolvedSettings,
): AttemptBudget[] {
  return models.map((model) => ({
    tokenizer: model.tokenizer,
    usableTokens: usableTokenBudget(model as ModelDescriptor, settings).usable,
    strictAlternation: model.capabilities.strictAlternation,
  }));
}

export function cutUnreachableHistory(args: {
  history: readonly StoredMessage[];
  budgets: readonly AttemptBudget[] | null | undefined;
  personaId: string;
  impersonateUserId?: string | null;
  blocks: readonly PersonaUserBlock[];
  now: string;
  settings: Pick<ResolvedSettings, "history" | "contextNote">;
}): StageResult<{ history: readonly StoredMessage[]; hiddenMessageIds: ReadonlySet<string> | null }> {
  const { history, budgets, personaId, impersonateUserId } = args;
  const unchanged = { value: { history, hiddenMessageIds: null }, trace: [] };
  if (!budgets || budgets.length === 0 || history.length < 2) return unchanged;
  if (args.settings.history.maxItems !== null) return unchanged;
  for (const budget of budgets) if (budget.strictAlternation) return unchanged;
  const noteDepth = args.settings.contextNote.depth;

  const blockedUserIds = new Set<string>();
  for (const block of activeBlocksFor(args.blocks, personaId, args.now))
    if (block.blockType === "block") blockedUserIds.add(block.userId);
  const isBlocked = (message: StoredMessage) =>
    message.authorType === "user" &&
    message.authorUserId !== null &&
    blockedUserIds.has(message.authorUserId);

  // The lower bound of what the messages from `index` on cost, per budget, newest first.
  const bounds = new Float64Array(budgets.length);
  // Runs of one author's messages from `index` on that surely become an item (a collapsed run, a blocked run's
  // notice): the run open at `index` counts once it holds text.
  let closedRuns = 0;
  let openRunHasText = false;
  let cut = -1;
  let newerIsUserSide = roleFor(lastOf(history), personaId, impersonateUserId) === "user";
  for (let index = history.length - 1; index >= 1 && cut === -1; index--) {
    const message = history[index];
    const older = history[index - 1];
    if (message === undefined || older === undefined) break;
    const newer = history[index + 1];
    if (newer !== undefined && !sameAuthor(message, newer)) {
      if (openRunHasText) closedRuns++;
      openRunHasText = false;
    }
    const blocked = isBlocked(message);
    if (blocked || hasSentText(message)) openRunHasText = true;
    if (!blocked)
      for (let budget = 0; budget < budgets.length; budget++) {
        const tokenizer = budgets[budget]?.tokenizer;
        if (tokenizer !== undefined)
          bounds[budget] = (bounds[budget] ?? 0) + lowerBoundTokens(message, tokenizer);
      }
    const isUserSide = newerIsUserSide;
    const olderIsUserSide = roleFor(older, personaId, impersonateUserId) === "user";
    newerIsUserSide = olderIsUserSide;
    if (!isUserSide || olderIsUserSide) continue;
    let overAll = closedRuns + (openRunHasText ? 1 : 0) > noteDepth;
    for (let budget = 0; budget < budgets.length && overAll; budget++)
      overAll = (bounds[budget] ?? 0) > (budgets[budget]?.usableTokens ?? Number.POSITIVE_INFINITY);
    if (overAll) cut = index;
  }
  if (cut === -1) return unchanged;

  const hiddenMessageIds = blockedUserIds.size > 0 ? quotedBlockedMessages(history, cut, isBlocked) : null;
  let largest = 0;
  for (const budget of budgets) largest = Math.max(largest, budget.usableTokens);
  const event = traceEvent(
    "budget",
    "not-built",
    `${plural(cut, "older message")} not built: the ${plural(history.length - cut, "newer message")} already need more than ${largest} tokens, the most any model of this turn can take`,
    {
      counts: { messages: cut, keptMessages: history.length - cut, usableTokens: largest },
      details: { throughSeq: elementAt(history, cut - 1).seq },
    },
  );
  return { value: { history: history.slice(cut), hiddenMessageIds }, trace: [event] };
}

/**
 * At most what the message's items cost, from its cached counts: its text's count, or for text split by tool calls
 * the counts of the segments that are sent (blank ones are not); 0 for blank text (nothing of it is sent).
 */
function lowerBoundTokens(message: StoredMessage, tokenizer: TokenizerName): number {
  let bound = 0;
  if (hasArtifactParts(message)) {
    const segments = message.segmentTokenCounts?.[tokenizer];
    if (segments) for (const count of segments) bound += Math.max(0, count - JOIN_SLACK_TOKENS);
    return bound;
  }
  const cached = message.tokenCounts?.[tokenizer];
  if (cached === undefined || cached <= JOIN_SLACK_TOKENS || !hasSentText(message)) return 0;
  return cached - JOIN_SLACK_TOKENS;
}

function hasSentText(message: StoredMessage): boolean {
  for (const part of message.parts) if (part.type === "text" && hasText(part.text)) return true;
  return false;
}

/**
 * The cut messages of blocked users that a kept message replies to (the blocks stage drops those reply
 * annotations). Replies mostly quote recent messages, so the cut part is searched newest first and only until
 * every quote is found.
 */
function quotedBlockedMessages(
  history: readonly StoredMessage[],
  cut: number,
  isBlocked: (message: StoredMessage) => boolean,
): Set<string> | null {
  const quoted = new Set<string>();
  for (let index = cut; index < history.length; index++) {
    const target = history[index]?.replyToMessageId;
    if (target !== null && target !== undefined) quoted.add(target);
  }
  if (quoted.size === 0) return null;
  for (const message of history.slice(cut)) quoted.delete(message.id);
  let hidden: Set<string> | null = null;
  let left = quoted.size;
  for (let index = cut - 1; index >= 0 && left > 0; index--) {
    const message = history[index];
    if (message === undefined || !quoted.has(message.id)) continue;
    left--;
    if (!isBlocked(message)) continue;
    hidden ??= new Set();
    hidden.add(message.id);
  }
  return hidden;
}

/** Phase A: history no model of the turn could take is not built (the budget would drop it whole anyway). */
export const reachStage: Stage<readonly StoredMessage[], ReachableHistory, PhaseAContext> = {
  name: "reach",
  run(loaded, { input, settings }) {
    const reached = cutUnreachableHistory({
      history: loaded,
      budgets: input.attemptBudgets,
      personaId: input.persona.id,
      impersonateUserId: input.impersonateUserId,
      blocks: input.blocks,
      now: input.now,
      settings,
    });
    return {
      value: { loaded, ...reached.value },
      trace: reached.trace,
    };
  },
};
