// Everything phase A needs for one turn, loaded from the database in a few bounded queries: the active summary,
// the newest `messageFetchLimit` unsummarised messages after it, their media and artifacts, persona, memories,
// blocks, participants and the resolved settings. Cost does not grow with the length of the history.

import "server-only";
import { loadAttachmentData } from "@/db/attachment-queries";
import type { Database } from "@/db/client";
import { listHistoryWindowWithMedia, type WindowWithMedia } from "@/db/message-queries";
import type { Conversation, Message, Persona } from "@/db/schema";
import { type ConversationContextRows, readTurnSnapshot } from "@/db/turn-snapshot-queries";
import type { PreloadedSummaryInputs } from "@/lib/chat/summary/summary-decision";
import { countUserTurns } from "@/lib/context/current-input";
import { type ResolvedSettings, resolveSettings, type SettingsOverride } from "@/lib/domain/settings";
import type { BuildInput, StoredMessage } from "@/lib/domain/types";
import { toStoredArtifact, toStoredAttachment, toStoredMessage, toStoredSummary } from "./stored-rows";
import { MAX_TOOL_STEPS, runnableToolNames, TOOL_CATALOG } from "./tools";

export interface TurnInput {
  buildInput: BuildInput;
  settings: ResolvedSettings;
  settingsVersion: number;
  /** The rows the summary check before the turn needs, so it loads nothing again (see summarise.ts). */
  summaryInputs: Omit<PreloadedSummaryInputs, "personaModel">;
}

/** Resolve conversation → persona → global per key. Note texts stack instead, so the resolved
 *  `contextNote.text` stays the global note and the other two travel separately. */
export function resolveTurnSettings(
  global: ResolvedSettings,
  persona: Pick<Persona, "settingsOverride">,
  conversation: Pick<Conversation, "settingsOverride">,
): { settings: ResolvedSettings; personaNote: string | null; conversationNote: string | null } {
  const personaOverride = persona.settingsOverride as SettingsOverride;
  const conversationOverride = conversation.settingsOverride as SettingsOverride;
  const settings = resolveSettings(global, conversationOverride, personaOverride);
  settings.contextNote.text = global.contextNote.text;
  return {
    settings,
    personaNote: personaOverride.contextNote?.text?.trim() || null,
    conversationNote: conversationOverride.contextNote?.text?.trim() || null,
  };
}

export async function loadTurnInput({
  db,
  conversation,
  persona,
  currentMessage,
  currentMessageStored = true,
  currentMessageIsNew = false,
  requesterId,
  settingsOverride,
  now = new Date(),
  context,
}: {
  db: Database;
  conversation: Conversation;
  persona: Persona;
  /** The user's message being answered: stored, or being stored (its row once the insert is done). */
  currentMessage: Message | Promise<Message>;
  /** False for a preview's draft, which is not stored: it still takes its place in the fetch window. */
  currentMessageStored?: boolean;
  /**
   * `currentMessage` is a new message being inserted now, after the conversation's last seq as `conversation` was
   * read: the window is then read beside the insert instead of after it (loadHistoryWindow).
   */
  currentMessageIsNew?: boolean;
  requesterId: string;
  /** A dry run's settings changes (preview), applied as the most specific layer. */
  settingsOverride?: SettingsOverride;
  now?: Date;
  /** The rows read with the conversation (openConversation); read here, in one statement, when not given. */
  context?: ConversationContextRows;
}): Promise<TurnInput> {
  // In a room every member reads the turns and their attempts, raw request included: the requester's private
  // memories (user and user × persona scope) stay out, only the persona's own go in (the snapshot's rule).
  const {
    globalSettings,
    activeSummary: summaryRow,
    participants: participantRows,
    memories: memoryRows,
    blocks: blockRows,
  } = context ??
  (
    await readTurnSnapshot({
      db,
      conversationId: conversation.id,
      userId: requesterId,
      personaId: persona.id,
    })
  ).context;
  const resolved = resolveTurnSettings(globalSettings.settings, persona, conversation);
  const settings = settingsOverride
    ? resolveSettings(resolved.settings, settingsOverride)
    : resolved.settings;

  const { rows, current, loadedWindow, media } = await loadHistoryWindow({
    db,
    conversationId: conversation.id,
    fetchLimit: settings.history.messageFetchLimit,
    afterSeq: summaryRow?.coversThroughSeq ?? 0,
    currentMessage,
    currentMessageStored,
    newMessageSeq: currentMessageIsNew ? conversation.lastSeq + 1 : null,
  });
  const messages = rows.map(toStoredMessage);
  const { attachments, artifactRows } = await loadMessageMedia({ db, messages, media, settings });

  const currentInput: StoredMessage = toStoredMessage(current);
  const userTurnNumber = countUserTurns(messages, currentInput);
  const toolNames = new Set(runnableToolNames(persona.toolNames));

  return {
    settings,
    settingsVersion: globalSettings.version,
    summaryInputs: { globalSettings, activeSummary: summaryRow, windowRows: rows },
    buildInput: {
      conversationId: conversation.id,
      persona: { id: persona.id, name: persona.name, systemPrompt: persona.systemPrompt },
      participants: participantRows.map((row) => ({ userId: row.userId, name: row.name })),
      messages,
      attachments,
      artifacts: artifactRows.map(toStoredArtifact),
      summary: summaryRow ? toStoredSummary(summaryRow) : null,
      blocks: blockRows.map(({ block, userName }) => ({
        personaId: block.personaId,
        userId: block.userId,
        userName,
        blockType: block.blockType,
        reason: block.reason,
        expiresAt: block.expiresAt?.toISOString() ?? null,
      })),
      memories: memoryRows.map((row) => ({
        id: row.id,
        area: row.area,
        content: row.content,
        conversationId: row.conversationId,
        summaryId: row.summaryId,
      })),
      tools: TOOL_CATALOG.filter((tool) => toolNames.has(tool.name)),
      ...(toolNames.size > 0 ? { maxToolSteps: MAX_TOOL_STEPS } : {}),
      settings,
      personaNote: resolved.personaNote,
      conversationNote: resolved.conversationNote,
      conversationInstructions: conversation.instructions,
      currentInput,
      userTurnNumber,
      now: now.toISOString(),
      loadedWindow,
      privateMemoriesWithheld: conversation.visibility === "room",
    },
  };
}

/**
 * The fetch limit counts the message being answered: the window is it and the newest `limit − 1` messages before
 * it, nothing stored after it. The window is read with its media, beside a new message's insert or once the
 * message is stored; a preview's draft is never stored. Two rows beyond the others' limit hold the message itself
 * and one more, which says whether older unsummarised messages were left out.
 */
async function loadHistoryWindow({
  db,
  conversationId,
  fetchLimit,
  afterSeq,
  currentMessage,
  currentMessageStored,
  newMessageSeq,
}: {
  db: Database;
  conversationId: string;
  fetchLimit: number;
  /** The last seq the active summary covers (0 without one): only later messages are history. */
  afterSeq: number;
  currentMessage: Message | Promise<Message>;
  currentMessageStored: boolean;
  /** The seq a new message being inserted now should take; null for a message already stored, or a draft. */
  newMessageSeq: number | null;
}) {
  const othersLimit = Math.max(0, fetchLimit - 1);
  const readWindow = (throughSeq: number) =>
    listHistoryWindowWithMedia({ db, conversationId, afterSeq, throughSeq, limit: othersLimit + 2 });
  // A new message's window is read beside its insert (a write waits for the disk; a read need not wait for it), up
  // to the seq it should take. That read starts after the snapshot was read, so it holds every message up to the
  // seq the snapshot saw. It is the window a read after the insert gives when the new message took that very seq
  // (nothing was stored in between) and has no media (whose rows the insert links to it); else it is read again.
  const early = newMessageSeq === null ? null : readWindow(newMessageSeq);
  early?.catch(() => {});
  const current = await currentMessage;
  const earlyWindow = early ? await early : null;
  const media =
    earlyWindow && current.seq === newMessageSeq && !current.parts.some((part) => part.type === "media")
      ? earlyWindow
      : await readWindow(current.seq);
  const older = media.messages.filter((row) => row.id !== current.id && row.seq < current.seq);
  const others = older.length > othersLimit ? older.slice(older.length - othersLimit) : older;
  const rows = currentMessageStored ? [...others, current] : others;
  const oldestLoaded = rows[0];
  const loadedWindow =
    older.length > others.length && oldestLoaded !== undefined
      ? {
          omittedBeforeSeq: oldestLoaded.seq,
          // Seqs come from a per-conversation counter with no gaps, and everything after the active summary is
          // unsummarised: the count is arithmetic, so this costs no query and does not grow with the history.
          omittedCount: oldestLoaded.seq - afterSeq - 1,
        }
      : null;
  return { rows, current, loadedWindow, media };
}

/** The window's attachments and artifacts; bytes only for media inside the media window, the only ones rendered. */
async function loadMessageMedia({
  db,
  messages,
  media,
  settings,
}: {
  db: Database;
  messages: StoredMessage[];
  /** What the window's read found, for more messages than the window keeps. */
  media: WindowWithMedia;
  settings: ResolvedSettings;
}) {
  const messageIds = messages.map((message) => message.id);
  const inWindow = new Set(messageIds);
  const attachmentRows = media.attachments.filter((row) => row.messageId && inWindow.has(row.messageId));
  const artifactRows = media.artifacts.filter((row) => row.messageId && inWindow.has(row.messageId));
  const mediaWindowStart = Math.max(
    0,
    messages.length - Math.min(settings.media.window, settings.history.messageFetchLimit),
  );
  const renderableMessageIds = new Set(messageIds.slice(mediaWindowStart));
  const renderable = attachmentRows.filter((row) => row.messageId && renderableMessageIds.has(row.messageId));
  const data = await loadAttachmentData({ db, storageKeys: renderable.map((row) => row.storageKey) });
  const attachments = attachmentRows.map((row) => {
    const base64 = data.get(row.storageKey);
    return toStoredAttachment(row, base64 ? `data:${row.mime};base64,${base64}` : `attachment://${row.id}`);
  });
  return { attachments, artifactRows };
}
