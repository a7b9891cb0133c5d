// The body of GET /api/conversations/:id, which the conversation page also hands the chat as its first copy: one
// builder, so the two cannot differ.

import type { Conversation, Persona } from "@/db/schema";

export function conversationDetail({
  conversation,
  persona,
  models,
  readerId,
}: {
  conversation: Conversation;
  persona: Persona;
  /** The models the owner may choose for the conversation or one reply: those that can be called now. */
  models: { id: string; label: string }[];
  readerId: string;
}) {
  return {
    conversation: {
      id: conversation.id,
      title: conversation.title,
      ownerId: conversation.ownerId,
      personaId: conversation.personaId,
      isOwner: conversation.ownerId === readerId,
      /** "room" once someone has been invited. */
      visibility: conversation.visibility,
      instructions: conversation.instructions,
      settingsOverride: conversation.settingsOverride,
      /** The owner's choice of model; null answers with the persona's. */
      modelId: conversation.modelId,
    },
    persona: { id: persona.id, name: persona.name, avatar: persona.avatar, modelId: persona.modelId },
    models,
  };
}
