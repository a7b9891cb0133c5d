import {
  type ConversationContext,
  readableConversationRoute,
} from "@/app/api/conversations/readable-conversation";
import { getDb } from "@/db/client";
import { deleteConversation, getOwnedConversation, getPersona, updateConversation } from "@/db/queries";
import { parseId, readJson, requireUser, route } from "@/lib/api/route";
import { choosableModels, requireCallableModel } from "@/lib/chat/turn-setup";
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
  const user = await requireUser(request);
  const conversationId = parseId((await params).id, "Conversation");
  const body = await readJson(request, updateConversationSchema);
  const db = await getDb();
  await getOwnedConversation({ db, conversationId, userId: user.id });
  if (body.modelId) await requireCallableModel(db, body.modelId);
  const conversation = await updateConversation({ db, conversationId, changes: body });
  return Response.json({ conversation });
});

export const DELETE = route(async (request: Request, { params }: ConversationContext) => {
  const user = await requireUser(request);
  const conversationId = parseId((await params).id, "Conversation");
  const db = await getDb();
  await getOwnedConversation({ db, conversationId, userId: user.id });
  await deleteConversation({ db, conversationId });
  return new Response(null, { status: 204 });
});
