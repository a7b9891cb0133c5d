"use client";
// One message in the transcript: a user message (./user-message) or a reply (./assistant-message), with what both
// share: editing in place, branching from it, and its earlier versions once edited.
import { memo, useState } from "react";
import type { ChatUIMessage } from "@/lib/chat/views/ui-messages";
import { AssistantMessage } from "./assistant-message";
import { BranchButton, EditButton } from "./message-buttons";
import { MessageEditor } from "./message-editor";
import { type MessageActions, messageText } from "./message-parts";
import { MessageVersions } from "./message-versions";
import { QuestionVersions } from "./question-versions";
import { UserMessage } from "./user-message";

// The summary panel reads message text from here too.
export { messageText } from "./message-parts";

export const MessageItem = memo(function MessageItem({
  message,
  storedId,
  conversationId,
  personaName,
  showAuthor = false,
  streaming,
  inspected,
  canRegenerate,
  canEdit,
  canBranch,
  isLatestUserMessage,
  actions,
}: {
  message: ChatUIMessage;
  /** The id the server stored it under (differs from the client id for a just-sent user message). */
  storedId: string;
  conversationId: string;
  personaName: string;
  /** Show who wrote a user message (rooms, where several people write). */
  showAuthor?: boolean;
  streaming: boolean;
  inspected: boolean;
  /** The latest reply: it can get a new variant, or another of its variants can be chosen. */
  canRegenerate: boolean;
  canEdit: boolean;
  canBranch: boolean;
  /** The user's latest message: editing it offers "Save and regenerate". */
  isLatestUserMessage: boolean;
  actions: MessageActions;
}) {
  const [editing, setEditing] = useState(false);
  const summarized = message.metadata?.summarized === true;
  const saveEdit = async (newText: string, regenerate: boolean) => {
    await actions.onEdit(storedId, newText, regenerate);
    setEditing(false);
  };
  const editor = editing ? (
    <MessageEditor
      initialText={messageText(message)}
      // Only the user's latest message offers to regenerate the reply to its edit.
      offerRegenerate={message.role === "user" && isLatestUserMessage}
      onSave={saveEdit}
      onCancel={() => setEditing(false)}
    />
  ) : null;
  const editAndBranch = (
    <>
      {canEdit && !summarized && (
        <EditButton onEdit={() => setEditing(true)} forksQuestion={message.role === "user"} />
      )}
      {canBranch && <BranchButton onBranch={() => void actions.onBranch(storedId)} />}
    </>
  );
  const questionVersions = message.metadata?.questionVersions;
  const versions = (
    <>
      {questionVersions && (
        <QuestionVersions versions={questionVersions} enabled={canBranch} onShow={actions.onChooseVariant} />
      )}
      {message.metadata?.edited === true && (
        <MessageVersions
          conversationId={conversationId}
          messageId={storedId}
          canRestore={canEdit}
          onRestore={(versionId) => actions.onRestoreVersion(storedId, versionId)}
        />
      )}
    </>
  );
  const shown = { message, storedId, editor, versions, editAndBranch };
  if (message.role === "user") return <UserMessage {...shown} showAuthor={showAuthor} />;
  return (
    <AssistantMessage
      {...shown}
      personaName={personaName}
      streaming={streaming}
      inspected={inspected}
      canRegenerate={canRegenerate}
      actions={actions}
    />
  );
});
