import {
  type ConversationContext,
  readableConversationRoute,
  requireOwnedConversation,
} from "@/app/api/conversations/readable-conversation";
import { deleteConversation, updateConversation } from "@/db/conversation-queries";
import { getPersona } from "@/db/persona-queries";
import { conversationDetail } from "@/lib/api/conversation-detail";
import { respond } from "@/lib/api/respond";
import { route } from "@/lib/api/route";
import { choosableModels, requireCallableModel } from "@/lib/chat/turn/turn-setup";
import { assertSettingsAgree } from "@/lib/settings-agreement";
import { updateConversationSchema } from "../schema";

export const dynamic = "force-dynamic";

export const GET = readableConversationRoute(async ({ user, db, conversation }) => {
  const [persona, models] = await Promise.all([
    getPersona({ db, personaId: conversation.personaId }),
    choosableModels(db),
  ]);
  return respond(
    "GET /api/conversations/:id",
    conversationDetail({ conversation, persona, models, readerId: user.id }),
  );
});

export const PATCH = route(async (request: Request, { params }: ConversationContext) => {
  const {
    db,
    conversationId,
    conversation: stored,
    body,
  } = await requireOwnedConversation(request, params, updateConversationSchema);
  if (body.modelId) await requireCallableModel(db, body.modelId);
  if (body.settingsOverride) {
    const persona = await getPersona({ db, personaId: stored.personaId });
    await assertSettingsAgree(db, body.settingsOverride, persona.settingsOverride);
  }
  const conversation = await updateConversation({ db, conversationId, changes: body });
  return respond("PATCH /api/conversations/:id", { conversation });
});

export const DELETE = route(async (request: Request, { params }: ConversationContext) => {
  const { db, conversationId } = await requireOwnedConversation(request, params);
  await deleteConversation({ db, conversationId });
  return new Response(null, { status: 204 });
});
