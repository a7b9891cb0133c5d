// GET /api/conversations/:id/messages/:messageId: the message and its earlier versions (edits), oldest first.
// PATCH: edit its text (in place, the version it replaces kept; a question that was answered forks instead, and the
// answer names the new version), restore an earlier version, or choose this reply variant or this version of a
// question (its whole branch is shown). A user edits their own messages; the owner edits the persona's replies;
// the owner or the person a reply answers chooses among its variants, the owner or the question's author among its
// versions. Nothing changes while a reply is being written (409).

import { readableConversationRoute } from "@/app/api/conversations/readable-conversation";
import type { getDb } from "@/db/client";
import { editMessageText, listMessageVersions, restoreMessageVersion } from "@/db/message-edit-queries";
import { getMessageInConversation } from "@/db/message-queries";
import { showQuestionBranch } from "@/db/message-tree-queries";
import { chooseReplyVariant } from "@/db/message-variant-queries";
import type { Conversation, Message } from "@/db/schema";
import { respond } from "@/lib/api/respond";
import { parseId, readJson, type SessionUser } from "@/lib/api/route";
import { refuseWhileReplyIsWritten } from "@/lib/chat/turn-control/stop-turn";
import { AppError } from "@/lib/domain/errors";
import { publishMessage, publishTranscriptChange } from "@/lib/live/publish";
import { messageChangeSchema } from "./schema";

export const dynamic = "force-dynamic";

export const GET = readableConversationRoute<"messageId">(
  async ({ db, conversationId }, _request, { messageId }) => {
    const message = await getMessageInConversation({
      db,
      conversationId,
      messageId: parseId(messageId, "Message"),
    });
    const versions = await listMessageVersions({ db, messageId: message.id });
    return respond("GET /api/conversations/:id/messages/:messageId", {
      message: withoutCounts(message),
      versions,
    });
  },
);

export const PATCH = readableConversationRoute<"messageId">(async (access, request, pathSegments) => {
  const { user, db, conversationId, conversation } = access;
  const messageId = parseId(pathSegments.messageId, "Message");
  const change = await readJson(request, messageChangeSchema);
  const message = await getMessageInConversation({ db, conversationId, messageId });
  await refuseWhileReplyIsWritten({ db, conversationId, action: "change a message" });
  let updated: Message;
  if ("chosen" in change) {
    await refuseUnlessMayChoose(db, conversation, message, user);
    updated =
      message.authorType === "user"
        ? await showQuestionBranch({ db, conversationId, messageId })
        : await chooseReplyVariant({ db, conversationId, messageId });
  } else {
    refuseUnlessMayEdit(conversation, message, user);
    updated =
      "text" in change
        ? await editMessageText({
            db,
            conversationId,
            messageId,
            text: change.text.trim(),
            editorId: user.id,
          })
        : await restoreMessageVersion({
            db,
            conversationId,
            messageId,
            versionId: change.restoreVersionId,
            editorId: user.id,
          });
  }
  // A new choice of variant or branch (a fork too) changes the readers' transcript, an edit in place one message
  // (docs/features.md, "Live rooms").
  const forked = updated.id !== messageId;
  void ("chosen" in change || forked ? publishTranscriptChange : publishMessage)({
    db,
    conversationId,
    messageId,
  });
  const versions = await listMessageVersions({ db, messageId: updated.id });
  return respond("PATCH /api/conversations/:id/messages/:messageId", {
    message: withoutCounts(updated),
    versions,
  });
});

function refuseUnlessMayEdit(conversation: Conversation, message: Message, user: SessionUser) {
  if (message.authorType === "user" && message.authorUserId === user.id) return;
  if (message.authorType === "persona" && conversation.ownerId === user.id) return;
  throw new AppError(
    "forbidden",
    message.authorType === "persona"
      ? "Only the conversation's owner can edit the persona's replies."
      : "You can edit only your own messages.",
  );
}

async function refuseUnlessMayChoose(
  db: Awaited<ReturnType<typeof getDb>>,
  conversation: Conversation,
  message: Message,
  user: SessionUser,
) {
  if (conversation.ownerId === user.id) return;
  if (message.authorType === "user") {
    if (message.authorUserId === user.id) return;
    throw new AppError(
      "forbidden",
      "Only the owner, or the person who asked it, can show another version of a question.",
    );
  }
  if (!message.replyToMessageId) return;
  const answered = await getMessageInConversation({
    db,
    conversationId: conversation.id,
    messageId: message.replyToMessageId,
  }).catch(() => null);
  if (answered?.authorUserId === user.id) return;
  throw new AppError(
    "forbidden",
    "Only the owner, or the person this reply answers, can choose its variant.",
  );
}

function withoutCounts({ tokenCounts: _tokenCounts, segmentTokenCounts: _segments, ...message }: Message) {
  return message;
}
