import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { getPersona, getReadableConversation, listMessages } from "@/db/queries";
import { ChatView } from "@/components/chat/chat-view";
import { AppError } from "@/lib/errors";
import { toUIMessage } from "@/lib/chat/ui-messages";
import { requirePageUser } from "@/lib/session";

export const dynamic = "force-dynamic";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default async function ConversationPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePageUser();
  const { id } = await params;
  if (!UUID.test(id)) notFound();
  const db = await getDb();
  const conversation = await getReadableConversation({ db, conversationId: id, userId: user.id }).catch((error) => {
    if (error instanceof AppError && error.code === "not_found") return null;
    throw error;
  });
  if (!conversation) notFound();
  const [persona, messages] = await Promise.all([
    getPersona({ db, personaId: conversation.personaId }),
    listMessages({ db, conversationId: id }),
  ]);
  return (
    <ChatView
      key={conversation.id}
      conversationId={conversation.id}
      title={conversation.title}
      personaName={persona.name}
      modelId={persona.modelId}
      initialMessages={messages.map(toUIMessage)}
    />
  );
}
