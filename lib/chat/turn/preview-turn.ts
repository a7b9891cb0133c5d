// A dry run of the next turn: the same loading, phase A, phase B and request building as a
// real turn, with the message not stored and no model called. Settings changes apply on top, for "what if".

import "server-only";
import type { Database } from "@/db/client";
import type { Conversation, Message, Persona } from "@/db/schema";
import type { SessionUser } from "@/lib/api/route";
import { previewRequest } from "@/lib/chat/attempts/model-call";
import { replyIsBeingWritten } from "@/lib/chat/turn-control/stop-turn";
import { messageTokenCounts } from "@/lib/context/token-cache";
import type { SettingsOverride } from "@/lib/domain/settings";
import { reconcileRequest } from "@/lib/providers/wire-reconciliation";
import { toModelDescriptor } from "./stored-rows";
import { personaToolSet, runnableToolNames } from "./tools";
import { loadAndBuild, openConversation, requireCallableRow, resolveOrRefuse } from "./turn-setup";

export const PREVIEW_MESSAGE_ID = "00000000-0000-7000-8000-000000000000";

/**
 * A message that is built into a context but never stored (a preview's draft, "write as me"'s instruction): it
 * takes the next seq and its place in the fetch window, as the stored one would.
 */
export function unsentMessage({
  conversation,
  author,
  text,
  now,
}: {
  conversation: Pick<Conversation, "id" | "lastSeq">;
  author: Pick<Message, "authorType" | "authorName"> & { authorUserId?: string | null };
  text: string;
  now: Date;
}): Message {
  const parts = [{ type: "text" as const, text }];
  return {
    id: PREVIEW_MESSAGE_ID,
    conversationId: conversation.id,
    seq: conversation.lastSeq + 1,
    authorType: author.authorType,
    authorUserId: author.authorUserId ?? null,
    authorPersonaId: null,
    authorName: author.authorName,
    parts,
    replyToMessageId: null,
    parentMessageId: null,
    status: "complete",
    chosen: true,
    chosenAmongSiblings: true,
    clientMessageId: null,
    editedAt: null,
    summarizedBy: null,
    ...messageTokenCounts(parts),
    createdAt: now,
    updatedAt: now,
  };
}

export async function previewTurn({
  db,
  user,
  conversationId,
  text,
  modelId,
  settings,
  persona: personaDraft,
}: {
  db: Database;
  user: SessionUser;
  conversationId: string;
  text: string;
  modelId?: string;
  settings?: SettingsOverride;
  /** Preview as this persona instead of the conversation's (the admin persona editor's unsaved draft). */
  persona?: Persona;
}) {
  const { conversation, persona, context, models, runningTurn } = await openConversation({
    db,
    conversationId,
    userId: user.id,
    persona: personaDraft,
    modelId: modelId ?? personaDraft?.modelId,
  });
  // A preview calls no model, so it is built even while a reply is being written: it then says that the reply's
  // text in it is the part stored so far (docs/features.md, "Stop").
  const modelRow = requireCallableRow(models, modelId ?? persona.modelId);
  const replyInProgress = await replyIsBeingWritten({ db, conversationId, runningTurn });
  const now = new Date();
  const draft = unsentMessage({
    conversation,
    author: { authorType: "user", authorUserId: user.id, authorName: user.name },
    text,
    now,
  });
  const { turnInput, base } = await loadAndBuild({
    db,
    conversation: withPreviewNote(conversation, settings),
    persona,
    currentMessage: draft,
    currentMessageStored: false,
    requesterId: user.id,
    settingsOverride: settings,
    now,
    context,
    models: [modelRow],
  });
  const model = toModelDescriptor(modelRow);
  const resolved = resolveOrRefuse(base, model, runnableToolNames(persona.toolNames));
  // The same tool definitions as the real turn, so the body is the same; nothing runs (nothing is sent).
  const tools = personaToolSet(persona, { db, userId: user.id, conversationId });
  const request = await previewRequest(model, resolved, tools);
  // Where each item would sit in the body the provider would get (docs/features.md#wire-reconciliation).
  const wire = reconcileRequest(resolved.items, request);
  return {
    modelId: model.id,
    provider: model.provider,
    settingsVersion: turnInput.settingsVersion,
    settings: base.settings,
    items: wire.items,
    unclaimed: wire.unclaimed,
    warnings: wire.warnings,
    trace: resolved.trace,
    budget: resolved.budget,
    request: { url: request.url, body: request.body },
    replyInProgress,
  };
}

/**
 * A preview's `contextNote.text` stands for the conversation's own note ("what if this chat's note said…"):
 * resolved settings only carry the global note, which a conversation or persona note would hide.
 */
function withPreviewNote(conversation: Conversation, settings: SettingsOverride | undefined): Conversation {
  const text = settings?.contextNote?.text;
  if (text === undefined) return conversation;
  const override = conversation.settingsOverride as SettingsOverride;
  return {
    ...conversation,
    settingsOverride: { ...override, contextNote: { ...override.contextNote, text } },
  };
}
