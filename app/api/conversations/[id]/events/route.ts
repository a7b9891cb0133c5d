// GET /api/conversations/:id/events: the conversation as it happens, as Server-Sent Events, for whoever may read
// it (docs/features.md, "Live rooms"): new and changed messages (a reply's text so far while it streams),
// typing, people joining and leaving. Each stored event has an id; a reconnect with Last-Event-ID (or ?after=)
// gets every later one, once. ?follow=0 sends what is stored after that id and ends.
import { parseQuery } from "@/app/api/request-fields";
import { getDb } from "@/db/client";
import { getReadableConversation } from "@/db/conversation-queries";
import { parseId, requireUser, route } from "@/lib/api/route";
import { openLiveStream } from "@/lib/live/event-stream";
import { liveEventsQuerySchema } from "./schema";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const user = await requireUser(request);
  const conversationId = parseId((await params).id, "Conversation");
  const search = new URL(request.url).searchParams;
  const query = parseQuery(liveEventsQuerySchema, {
    after: request.headers.get("last-event-id") || search.get("after") || undefined,
    follow: search.get("follow") ?? undefined,
  });
  const db = await getDb();
  await getReadableConversation({ db, conversationId, userId: user.id });
  return openLiveStream({
    db,
    conversationId,
    userId: user.id,
    afterId: query.after,
    follow: query.follow === "1",
    abortSignal: request.signal,
    mayRead: () =>
      getReadableConversation({ db, conversationId, userId: user.id }).then(
        () => true,
        () => false,
      ),
  });
});
