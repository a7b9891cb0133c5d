// Phase A of the context pipeline (SPEC §5.2 stages 2–11): a stored conversation, loaded by the caller, becomes
// capability-neutral context items plus a trace of what every stage did. Pure and deterministic: no clock, no
// randomness, no global state, inputs never mutated (only new arrays and shallow item copies are made).
//
// Item ids come from their sources, so the same input gives deep-equal output and ids are stable across turns:
//   msg:<messageId>            a stored message (a collapsed run takes its first message's id)
//   msg:<messageId>:text:<k>   the k-th text piece of an assistant message split around its tool calls
//   msg:<messageId>:media-notice  the omitted-images notice before an assistant turn
//   artifact:<artifactId>      replayed reasoning / tool calls / tool outputs (grouped, first artifact's id)
//   blocked:<firstMessageId>   the notice standing in for a run of a blocked user's messages
//   note:persona | note:conversation | note:global
//   system:<TAG>               the system-prompt items (SYSTEM_PROMPT, TOOL_RULES, …)
//   summary:<summaryId>
//
// Tokens: `item.tokens` is filled only where it is free, from the messages' cached counts: an item made of pure
// text messages (one, or a collapsed run) with a cached count for the chosen tokenizer (default o200k_base) gets
// TOKENS_PER_MESSAGE + the cached counts + one token per newline joining a run + the label's count (counted once
// per distinct name). Within a token or two of a full recount, and no tokenising on the hot path. Every other item
// (system items, notes, summary, media, tool items, notices) keeps 0, and phase B's budget stage counts it for the
// attempt's tokenizer. Pass `{ tokenizer: null }` to leave every count at 0, or the primary model's tokenizer.

import { type ArtifactLookup, replayArtifacts } from "./artifact-replay";
import { collapseRuns } from "./collapse-runs";
import { activeContextNotes, injectContextNotes } from "./context-notes";
import { appendCurrentInput, excludeCurrentInput } from "./current-input";
import { cutUnreachableHistory } from "./history-reach";
import { windowHistory } from "./history-window";
import { applyMediaBudget } from "./media-budget";
import { applyPersonaUserBlocks } from "./persona-user-blocks";
import { mapRoles } from "./role-mapping";
import { dropCoveredMessages, placeSummary } from "./summary-placement";
import { prependSystemPrompt } from "./system-prompt";
import { plural, traceEvent } from "./trace";
import type {
  BaseContext,
  BuildInput,
  StoredArtifact,
  StoredAttachment,
  StoredMessage,
  TokenizerName,
  TraceEvent,
} from "./types";

export interface BuildOptions {
  /** Which cached per-message count fills `item.tokens`; null fills none. Default "o200k_base". */
  tokenizer?: TokenizerName | null;
}

export function buildContext(input: BuildInput, options: BuildOptions = {}): BaseContext {
  const { settings } = input;
  const trace: TraceEvent[] = [];
  const tokenizer = options.tokenizer === undefined ? "o200k_base" : options.tokenizer;

  // Lookups by id, built once. Messages need none: each item carries its source message along (`sources`), and
  // the one lookup left (the note's trace reason) scans from the newest message.
  const messageLookup = { get: (messageId: string) => findMessage(input, messageId) };
  const attachmentsById = new Map<string, StoredAttachment>();
  for (const attachment of input.attachments) attachmentsById.set(attachment.id, attachment);
  const artifactsById = sequentialArtifacts(input.artifacts);

  // 1. What the loader left out: older unsummarised messages beyond the fetch limit.
  const loadEvent = fetchLimitEvent(input);
  if (loadEvent !== null) trace.push(loadEvent);
  if (input.privateMemoriesWithheld) {
    trace.push(
      traceEvent(
        "load",
        "private-memories-withheld",
        "a room: the sender's private memories are not used, because every member of the room can read this payload; only the persona's own memories are",
      ),
    );
  }

  // What counts as history: not the current input (stage 11 puts it last), nothing the summary covers (stage 10).
  const history = historyMessages(input, trace);

  // History no attempt could send is not built: the budget (stage 14) would drop it whole whatever the model.
  const reachable = cutUnreachableHistory({
    history,
    budgets: input.attemptBudgets,
    personaId: input.persona.id,
    impersonateUserId: input.impersonateUserId,
    blocks: input.blocks,
    now: input.now,
    settings,
  });
  pushAll(trace, reachable.trace);

  // 2. Collapse runs of pure-text messages by one author.
  const collapsed = collapseRuns(reachable.history);
  pushAll(trace, collapsed.trace);

  // 3. Blocked users' turns become notices.
  const blocked = applyPersonaUserBlocks({
    entries: collapsed.entries,
    blocks: input.blocks,
    personaId: input.persona.id,
    personaName: input.persona.name,
    now: input.now,
    hiddenElsewhere: reachable.hiddenMessageIds,
  });
  pushAll(trace, blocked.trace);

  // 4. Roles, speaker labels, sender metadata; the current input becomes its item here, held apart until stage 11.
  const mapped = mapRoles({
    entries: blocked.entries,
    currentInput: input.currentInput,
    persona: input.persona,
    participants: input.participants,
    allMessages: history,
    impersonateUserId: input.impersonateUserId,
    settings,
    tokenizer,
  });
  pushAll(trace, mapped.trace);

  // 5. Media budget: the current input is the newest message of the window.
  const media = applyMediaBudget({
    history: mapped.history,
    current: mapped.current,
    messagesById: EMPTY_MESSAGES,
    attachmentsById,
    settings,
    sources: {
      history: loadedSources(mapped.historySources, blocked.originals),
      current: input.currentInput,
    },
  });
  pushAll(trace, media.trace);

  // 6. Artifacts replayed between the assistant's text pieces; empty items dropped.
  const replayed = replayArtifacts({
    items: media.history,
    messagesById: EMPTY_MESSAGES,
    artifactsById,
    settings,
    tokenizer,
    currentInputFollows: true,
    sources: media.historySources,
  });
  pushAll(trace, replayed.trace);

  // 7. History window.
  const windowed = windowHistory(replayed.items, settings.history.maxItems);
  pushAll(trace, windowed.trace);

  // 8. Context notes at depth.
  const notes = activeContextNotes({
    personaNote: input.personaNote,
    conversationNote: input.conversationNote,
    globalNote: settings.contextNote.text,
  });
  const noted = injectContextNotes({
    items: windowed.items,
    notes,
    settings: settings.contextNote,
    userTurnNumber: input.userTurnNumber,
    messagesById: messageLookup,
  });
  pushAll(trace, noted.trace);

  // 9. System prompt items first.
  const withSystem = prependSystemPrompt(noted.items, {
    persona: input.persona,
    tools: input.tools,
    maxToolSteps: input.maxToolSteps,
    memories: input.memories,
    conversationId: input.conversationId,
    summary: input.summary,
    keyContextReminder: settings.keyContextReminder,
    conversationInstructions: input.conversationInstructions,
    blocks: input.blocks,
    now: input.now,
  });
  pushAll(trace, withSystem.trace);

  // 10. Summary after the system items.
  const summarised = placeSummary(withSystem.items, input.summary);
  pushAll(trace, summarised.trace);

  // 11. Current input last, once.
  const final = appendCurrentInput(summarised.items, media.current);
  pushAll(trace, final.trace);

  return { items: final.items, trace, settings, tokenizer };
}

/**
 * The loaded messages without the current input and without what the summary covers, in one pass for the usual
 * case (the input stored as the newest message, nothing covered); anything else goes through the two stages.
 */
function historyMessages(input: BuildInput, trace: TraceEvent[]): StoredMessage[] {
  const { messages, currentInput, summary } = input;
  const last = messages.length - 1;
  // Message ids are unique: when the newest message is the input, no other is, and ids need no comparing.
  const inputIsNewest = last >= 0 && messages[last].id === currentInput.id;
  let inputAt = inputIsNewest ? last : -1;
  let covered = false;
  for (let index = 0; index < messages.length && !covered; index++) {
    const message = messages[index];
    if (inputIsNewest ? index === last : message.id === currentInput.id) {
      if (inputAt === -1) inputAt = index;
      continue;
    }
    covered = message.summarizedBy !== null || (summary !== null && message.seq <= summary.coversThroughSeq);
  }
  if (!covered && inputAt === -1) return messages as StoredMessage[];
  if (!covered && inputAt === last) {
    // The same event the stage reports, made by the stage.
    pushAll(trace, excludeCurrentInput([currentInput], currentInput).trace);
    return messages.slice(0, last);
  }
  const withoutInput = excludeCurrentInput(messages, currentInput);
  pushAll(trace, withoutInput.trace);
  const uncovered = dropCoveredMessages(withoutInput.messages, summary);
  pushAll(trace, uncovered.trace);
  return uncovered.messages;
}

/** The loader's fetch-limit slide, when it left older unsummarised messages out. */
function fetchLimitEvent(input: BuildInput): TraceEvent | null {
  const window = input.loadedWindow;
  if (!window || window.omittedCount <= 0) return null;
  const limit = input.settings.history.messageFetchLimit;
  return traceEvent(
    "load",
    "fetch-limit",
    `${plural(window.omittedCount, "older message")} not loaded (history.messageFetchLimit ${limit})`,
    {
      counts: { omitted: window.omittedCount, messageFetchLimit: limit },
      details: { omittedBeforeSeq: window.omittedBeforeSeq },
    },
  );
}

/** Stages given `sources` never look messages up by id. */
const EMPTY_MESSAGES: ReadonlyMap<string, StoredMessage> = new Map();

/**
 * The loaded message each history item was made from, as a lookup by id would give it: stage 3 hands on a copy of
 * a message whose reply annotation it dropped, and its original is what later stages see.
 */
function loadedSources(
  sources: (StoredMessage | null)[],
  originals: ReadonlyMap<StoredMessage, StoredMessage> | null,
): (StoredMessage | null)[] {
  if (originals === null) return sources;
  return sources.map((source) => (source === null ? null : (originals.get(source) ?? source)));
}

/** How far ahead of its cursor a sequential lookup looks before it falls back to a map. */
const SEQUENTIAL_LOOKAHEAD = 32;

/**
 * Artifacts by id without indexing them all: the loader gives them in the order they happened (sorted by their
 * ULIDs) and stage 6 asks for them in that order, so a cursor that looks a little ahead finds each one; a miss
 * (the first ask after history was cut before the build, say) is looked up by binary search over the sorted ids.
 * Anything else (another order, a missing id) falls back to a map, built on first need. Ids are unique, so all
 * three give the same artifact.
 */
function sequentialArtifacts(artifacts: readonly StoredArtifact[]): ArtifactLookup {
  let cursor = 0;
  let byId: Map<string, StoredArtifact> | null = null;
  return {
    get(artifactId) {
      const end = Math.min(artifacts.length, cursor + SEQUENTIAL_LOOKAHEAD);
      for (let index = cursor; index < end; index++) {
        if (artifacts[index].id === artifactId) {
          cursor = index + 1;
          return artifacts[index];
        }
      }
      const found = binarySearchById(artifacts, artifactId);
      if (found !== -1) {
        cursor = found + 1;
        return artifacts[found];
      }
      if (byId === null) {
        byId = new Map();
        for (const artifact of artifacts) byId.set(artifact.id, artifact);
      }
      return byId.get(artifactId);
    },
  };
}

/** The index of `id` in a list sorted by id, or -1 (also when the list is not sorted where it looks). */
function binarySearchById(list: readonly { id: string }[], id: string): number {
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const candidate = list[middle].id;
    if (candidate === id) return middle;
    if (candidate < id) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** A message by id as a map of the loaded messages and the current input would give it (the input wins). */
function findMessage(input: BuildInput, messageId: string): StoredMessage | undefined {
  if (input.currentInput.id === messageId) return input.currentInput;
  for (let index = input.messages.length - 1; index >= 0; index--)
    if (input.messages[index].id === messageId) return input.messages[index];
  return undefined;
}

/** Append without spreading into arguments (a long trace would overflow the call stack). */
function pushAll(target: TraceEvent[], events: readonly TraceEvent[]): void {
  for (const event of events) target.push(event);
}
