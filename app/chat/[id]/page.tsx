import { notFound } from "next/navigation";
import { ChatView } from "@/components/chat/chat-view";
import { getDb } from "@/db/client";
import { getReadableConversation } from "@/db/conversation-queries";
import { getLiveEventCursor } from "@/db/live-event-queries";
import { getPersona } from "@/db/persona-queries";
import { listSummaries } from "@/db/summary-queries";
import { choosableModels } from "@/lib/chat/turn/turn-setup";
import { resumableStreams } from "@/lib/chat/turn-control/resumable-streams";
import { toSummaryViews } from "@/lib/chat/views/summary-view";
import { loadTranscript } from "@/lib/chat/views/transcript";
import { toUIMessage } from "@/lib/chat/views/ui-messages";
import { AppError } from "@/lib/domain/errors";
import { isUuid } from "@/lib/ids";
import { requirePageUser } from "@/lib/session";

export const dynamic = "force-dynamic";

export default async function ConversationPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePageUser();
  const { id } = await params;
  if (!isUuid(id)) notFound();
  const db = await getDb();
  const conversation = await getReadableConversation({ db, conversationId: id, userId: user.id }).catch(
    (error) => {
      if (error instanceof AppError && error.code === "not_found") return null;
      throw error;
    },
  );
  if (!conversation) notFound();
  // Read before the transcript: live updates start after this id, so none falls between the two.
  const { lastEventId } = await getLiveEventCursor({ db, conversationId: id });
  const [persona, transcript, summaryRows, models] = await Promise.all([
    getPersona({ db, personaId: conversation.personaId }),
    loadTranscript({ db, conversationId: id }),
    listSummaries({ db, conversationId: id }),
    choosableModels(db),
  ]);
  const { messages } = transcript;
  // The same shape as GET /api/conversations/:id/summaries.
  const summaries = toSummaryViews(summaryRows);
  const initialSummaries = {
    summaries,
    activeSummaryId: summaries.find((summary) => summary.isActive)?.id ?? null,
  };
  // The same shape as GET /api/conversations/:id, so the client cache starts warm.
  const initialDetail = {
    conversation: {
      id: conversation.id,
      title: conversation.title,
      ownerId: conversation.ownerId,
      personaId: conversation.personaId,
      isOwner: conversation.ownerId === user.id,
      visibility: conversation.visibility,
      instructions: conversation.instructions,
      settingsOverride: conversation.settingsOverride,
      modelId: conversation.modelId,
    },
    persona: { id: persona.id, name: persona.name, avatar: persona.avatar, modelId: persona.modelId },
    models,
  };
  // A reply still streaming is resumed from the start: its partial stored copy is left out so it is not
  // shown twice. Without Redis there is nothing to resume, and the partial copy is what there is.
  const resumeStream = resumableStreams() !== null;
  const last = messages.at(-1);
  const shown =
    resumeStream && last?.authorType === "persona" && last.status === "streaming"
      ? messages.slice(0, -1)
      : messages;
  return (
    <ChatView
      key={conversation.id}
      conversationId={conversation.id}
      initialDetail={initialDetail}
      initialMessages={shown.map((message) => toUIMessage(message, transcript))}
      initialSummaries={initialSummaries}
      canManageSummaries={conversation.ownerId === user.id || user.role === "admin"}
      userId={user.id}
      userName={user.name}
      resumeStream={resumeStream}
      initialEventId={lastEventId}
    />
  );
}
