// The opening most conversation routes share: who asks, and the conversation of the path, which they must be able
// to read (a conversation they may not read is simply not found), or own.

import type { z } from "zod";
import { getDb } from "@/db/client";
import { getOwnedConversation, getReadableConversation } from "@/db/conversation-queries";
import { parseId, readJson, requireUser, route } from "@/lib/api/route";

/** The route context of a conversation's path: its `id`, and the other segments `Key` names (e.g. "messageId"). */
export type ConversationContext<Key extends string = never> = {
  params: Promise<{ id: string } & Record<Key, string>>;
};

/** The signed-in user, the database and the readable conversation named by the path's `id` (else 401 / 404). */
export async function requireReadableConversation(request: Request, rawId: string) {
  const user = await requireUser(request);
  const conversationId = parseId(rawId, "Conversation");
  const db = await getDb();
  const conversation = await getReadableConversation({ db, conversationId, userId: user.id });
  return { user, db, conversationId, conversation };
}

type ReadableConversation = Awaited<ReturnType<typeof requireReadableConversation>>;

/**
 * A route of one conversation, for whoever may read it: the frame of `route`, then the handler, which also gets
 * the path's other segments.
 */
export function readableConversationRoute<Key extends string = never>(
  handler: (
    access: ReadableConversation,
    request: Request,
    pathSegments: Record<Key, string>,
  ) => Promise<Response>,
) {
  return route(async (request: Request, { params }: ConversationContext<Key>) => {
    const pathSegments = await params;
    return handler(await requireReadableConversation(request, pathSegments.id), request, pathSegments);
  });
}

/**
 * The signed-in user, the database, the path's conversation id and the request's body read with `bodySchema`
 * (when given), for a route of the conversation's owner alone (else 401 / 400 / 404). The body is read before
 * ownership is checked: a malformed body is a 400 whoever sends it.
 */
export async function requireOwnedConversation<Schema extends z.ZodType>(
  request: Request,
  params: ConversationContext["params"],
  bodySchema?: Schema,
) {
  const user = await requireUser(request);
  const conversationId = parseId((await params).id, "Conversation");
  // Without a schema there is no body: the route does not read it.
  const body = (bodySchema ? await readJson(request, bodySchema) : undefined) as z.infer<Schema>;
  const db = await getDb();
  const conversation = await getOwnedConversation({ db, conversationId, userId: user.id });
  return { user, db, conversationId, conversation, body };
}
