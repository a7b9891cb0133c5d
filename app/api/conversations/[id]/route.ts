import {
  type ConversationContext,
  readableConversationRoute,
  requireOwnedConversation,
} from "@/app/api/conversations/readable-conversation";
import { deleteConversation, updateConversation } from "@/db/conversation-queries";
import { getPersona } from "@/db/persona-queries";
import { route } from "@/lib/api/route";
import { choosableModels, requireCallableModel } from "@/lib/chat/turn/turn-setup";
import { updateConversationSchema } from "../schema";

export const dynamic = "force-dynamic";

export const GET = readableConversationRoute(async ({ user, db, conversation }) => {
  const [persona, models] = await Promise.all([
    getPersona({ db, personaId: conversation.personaId }),
    choosableModels(db),
  ]);
  return Response.json({
    conversation: { ...conversation, isOwner: conversation.ownerId === user.id },
    persona: { id: persona.id, name: persona.name, avatar: persona.avatar, modelId: persona.modelId },
    // The models the owner may choose for the conversation or one reply: those that can be called now.
    models,
  });
});

export const PATCH = route(async (request: Request, { params }: ConversationContext) => {
  const { db, conversationId, body } = await requireOwnedConversation(
    request,
    params,
    updateConversationSchema,
  );
  if (body.modelId) await requireCallableModel(db, body.modelId);
  const conversation = await updateConversation({ db, conversationId, changes: body });
  return Response.json({ conversation });
});

export const DELETE = route(async (request: Request, { params }: ConversationContext) => {
  const { db, conversationId } = await requireOwnedConversation(request, params);
  await deleteConversation({ db, conversationId });
  return new Response(null, { status: 204 });
});
