// The opening most conversation routes share: who asks, and the conversation of the path, which they must be able
// to read (a conversation they may not read is simply not found).
import { getDb } from "@/db/client";
import { getReadableConversation } from "@/db/queries";
import { parseId, requireUser, route } from "@/lib/api/route";

export type ConversationContext = { params: Promise<{ id: string }> };

/** The signed-in user, the database and the readable conversation named by the path's `id` (else 401 / 404). */
export async function requireReadableConversation(request: Request, rawId: string) {
  const user = await requireUser(request);
  const conversationId = parseId(rawId, "Conversation");
  const db = await getDb();
  const conversation = await getReadableConversation({ db, conversationId, userId: user.id });
  return { user, db, conversationId, conversation };
}

type ReadableConversation = Awaited<ReturnType<typeof requireReadableConversation>>;

/** A route of one conversation, for whoever may read it: the frame of `route`, then the handler. */
export function readableConversationRoute(
  handler: (access: ReadableConversation, request: Request) => Promise<Response>,
) {
  return route(async (request: Request, { params }: ConversationContext) =>
    handler(await requireReadableConversation(request, (await params).id), request),
  );
}
