// "Write as me": a draft of the requesting user's next message, in their voice, for them to edit and
// send. The same load and pipeline as a turn, generated as the user (impersonation, the role flip: their
// messages are the assistant's, everyone else's are user turns), after an instruction that is never stored.
// No message is stored: the draft goes back to the composer. Each try is recorded as a "write_as_me" attempt.

import "server-only";
import type { Database } from "@/db/client";
import type { SessionUser } from "@/lib/api/route";
import { runAuxiliaryCall } from "@/lib/chat/attempts/auxiliary-call";
import { unsentMessage } from "@/lib/chat/turn/preview-turn";
import { toModelDescriptor } from "@/lib/chat/turn/stored-rows";
import { loadAndBuild, openConversation, personaModels } from "@/lib/chat/turn/turn-setup";
import { refuseWhileReplyIsWritten } from "@/lib/chat/turn-control/stop-turn";
import { resolveForModel } from "@/lib/context/resolve-for-model";
import { AppError } from "@/lib/domain/errors";

/** A draft is asked for by someone waiting at the composer: a slow provider gives up rather than hold them. */
const DRAFT_TIMEOUT_MS = 60_000;

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
  const { conversation, persona, context, models, runningTurn } = await openConversation({
    db,
    conversationId,
    userId: user.id,
  });
  // A draft answers the history: not while a reply in it is half written (docs/features.md, "Stop").
  const { usable } = personaModels(models, persona);
  await refuseWhileReplyIsWritten({ db, conversationId, action: "ask for a draft", runningTurn });
  const now = new Date();
  const instruction = unsentMessage({
    conversation,
    author: { authorType: "system", authorName: "System" },
    text: writeAsMeInstruction(user.name),
    now,
  });
  const { turnInput, base } = await loadAndBuild({
    db,
    conversation,
    persona,
    currentMessage: instruction,
    currentMessageStored: false,
    requesterId: user.id,
    now,
    context,
    models: usable,
    impersonateUserId: user.id,
  });

  // The persona's models in order, as a turn tries them; the first draft that comes back is the answer.
  const outcome = await runAuxiliaryCall({
    db,
    conversationId,
    kind: "write_as_me",
    models: usable.map(toModelDescriptor),
    context: base,
    settingsVersion: turnInput.settingsVersion,
    prepare: (model) => ({ resolved: resolveForModel(base, model) }),
    unusable: (text) => (text.trim() === "" ? "the draft is empty" : null),
    timeoutMs: DRAFT_TIMEOUT_MS,
  });
  if (outcome.status !== "ok") {
    throw new AppError(
      "model_unavailable",
      `No draft could be written: ${outcome.error.message.replace(/\.$/, "")}.`,
    );
  }
  return { draft: outcome.value.text.trim(), modelId: outcome.value.modelId };
}
