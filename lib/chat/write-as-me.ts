// "Write as me": a draft of the requesting user's next message, in their voice, for them to edit and
// send. The same load and pipeline as a turn, generated as the user (impersonation, the role flip: their
// messages are the assistant's, everyone else's are user turns), after an instruction that is never stored.
// Nothing is stored: the draft goes back to the composer.

import type { Database } from "@/db/client";
import { getPersona, getReadableConversation } from "@/db/queries";
import type { SessionUser } from "@/lib/api/route";
import { buildContext } from "@/lib/context/build-context";
import { ContextBudgetError, resolveForModel } from "@/lib/context/resolve-for-model";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { loadTurnInput } from "./load-turn-input";
import { streamModelCall } from "./model-call";
import { unsentMessage } from "./preview-turn";
import { turnModels } from "./run-turn";
import { toModelDescriptor } from "./stored-rows";

/** What the model is asked, as a system notice where the user's next turn would be. */
export function writeAsMeInstruction(userName: string): string {
  return `Write ${userName}'s next message in this conversation, in ${userName}'s own voice and style, as ${userName} would send it. Reply with that message only: no quotes, no name, no commentary.`;
}

export async function draftAsUser({
  db,
  user,
  conversationId,
}: {
  db: Database;
  user: SessionUser;
  conversationId: string;
}): Promise<{ draft: string; modelId: string }> {
  const conversation = await getReadableConversation({ db, conversationId, userId: user.id });
  const persona = await getPersona({ db, personaId: conversation.personaId });
  const { usable } = await turnModels(db, persona);
  if (usable.length === 0) {
    throw new AppError(
      "model_unavailable",
      `Persona ${persona.name} has no usable model to write a draft with.`,
    );
  }
  const now = new Date();
  const instruction = unsentMessage({
    conversation,
    author: { authorType: "system", authorName: "System" },
    text: writeAsMeInstruction(user.name),
    now,
  });
  const turnInput = await loadTurnInput({
    db,
    conversation,
    persona,
    currentMessage: instruction,
    currentMessageStored: false,
    requesterId: user.id,
    now,
  });
  const base = buildContext({ ...turnInput.buildInput, impersonateUserId: user.id });

  // The persona's models in order, as a turn tries them; the first draft that comes back is the answer.
  let lastError = "";
  for (const row of usable) {
    const model = toModelDescriptor(row);
    try {
      const resolved = resolveForModel(base, model);
      const draft = (await streamModelCall({ model, resolved }).text).trim();
      if (draft) return { draft, modelId: model.id };
      lastError = `${model.id} wrote an empty draft`;
    } catch (error) {
      lastError =
        error instanceof ContextBudgetError ? error.message : `${model.id} failed: ${messageOf(error)}`;
      logger.warn(
        { conversationId, modelId: model.id, error: messageOf(error) },
        "write as me: model failed",
      );
    }
  }
  throw new AppError("model_unavailable", `No draft could be written: ${lastError}.`);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
