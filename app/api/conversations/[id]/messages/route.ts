import { getDb } from "@/db/client";
import {
  getReadableConversation,
  listMessageMedia,
  listMessages,
  listToolNamesByMessage,
} from "@/db/queries";
import { parseId, requireUser, route } from "@/lib/api/route";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const user = await requireUser(request);
  const conversationId = parseId((await params).id, "Conversation");
  const db = await getDb();
  await getReadableConversation({ db, conversationId, userId: user.id });
  const [rows, media, toolNames] = await Promise.all([
    listMessages({ db, conversationId }),
    listMessageMedia({ db, conversationId }),
    listToolNamesByMessage({ db, conversationId }),
  ]);
  return Response.json({
    messages: rows.map(({ tokenCounts, segmentTokenCounts, ...message }) => message),
    // The type and name of each attachment the messages' media parts name, by id.
    media: Object.fromEntries(media),
    // The tools each reply called, by message id.
    toolNames: Object.fromEntries(toolNames),
  });
});
