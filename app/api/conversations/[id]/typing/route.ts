// POST /api/conversations/:id/typing: the signed-in reader is typing; the others see it for a few seconds
// (docs/features.md, "Live rooms"). An empty body (or {}). 204. Not stored; repeated more often than once a
// second per person and conversation, it is ignored.
import { z } from "zod";
import { getDb } from "@/db/client";
import { getReadableConversation } from "@/db/conversation-queries";
import { parseId, readJson, requireUser, route } from "@/lib/api/route";
import { publishTyping } from "@/lib/live/publish";

export const dynamic = "force-dynamic";

export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const user = await requireUser(request);
  const conversationId = parseId((await params).id, "Conversation");
  await readJson(request, z.object({}).strict(), { whenEmpty: {} });
  await getReadableConversation({ db: await getDb(), conversationId, userId: user.id });
  await publishTyping({ conversationId, userId: user.id, name: user.name });
  return new Response(null, { status: 204 });
});
