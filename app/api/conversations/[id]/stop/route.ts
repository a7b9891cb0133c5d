// POST /api/conversations/:id/stop: stop the reply being written, from any instance. The provider request is
// aborted and the reply stored `stopped` with the text the user saw (`shownChars`, when the client says how much
// it showed). Anyone who may write in the conversation may stop it. 409 when no reply is running.
import { z } from "zod";
import { getDb } from "@/db/client";
import { getReadableConversation } from "@/db/conversation-queries";
import { getRunningTurn } from "@/db/turn-queries";
import { parseId, readJson, requireUser, route } from "@/lib/api/route";
import { stopTurn } from "@/lib/chat/turn-control/stop-turn";
import { turnRunningHere } from "@/lib/chat/turn-control/turn-stops";
import { AppError } from "@/lib/domain/errors";

export const dynamic = "force-dynamic";

const stopRequestSchema = z.object({
  /** How many characters of the reply the user saw when they pressed Stop: the stored reply keeps those. */
  shownChars: z.int({ error: "shownChars must be a whole number" }).min(0).max(10_000_000).optional(),
});

export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const user = await requireUser(request);
  const conversationId = parseId((await params).id, "Conversation");
  const body = await readJson(request, stopRequestSchema, { whenEmpty: {} });
  const db = await getDb();
  // Both at once (a stop should reach the provider fast); nothing is stopped unless the caller may read it.
  const [, turn] = await Promise.all([
    getReadableConversation({ db, conversationId, userId: user.id }),
    getRunningTurn({ db, conversationId }),
  ]);
  // A turn whose first words are out but whose row is not stored yet is found in this process's registry.
  const turnId = turn?.id ?? turnRunningHere(conversationId);
  if (!turnId) throw new AppError("conflict", "No reply is being written in this conversation.");
  const outcome = await stopTurn({ db, turnId, shownChars: body.shownChars });
  return Response.json({ turnId, messageId: turn?.assistantMessageId ?? null, ...outcome });
});
