// The people of a conversation (SPEC §7.3 rooms). GET: everyone who may read it sees who is in it. POST: the owner
// invites an account by email; it can then read and write in the conversation, which becomes a room. 201 with the
// new participant; 404 for an unknown email; 409 when they are in it already.
import { getDb } from "@/db/client";
import {
  getOwnedConversation,
  getReadableConversation,
  inviteParticipant,
  listParticipants,
} from "@/db/queries";
import { parseId, readJson, requireUser, route } from "@/lib/api/route";
import { inviteSchema } from "./schema";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const GET = route(async (request: Request, { params }: Context) => {
  const user = await requireUser(request);
  const conversationId = parseId((await params).id, "Conversation");
  const db = await getDb();
  await getReadableConversation({ db, conversationId, userId: user.id });
  return Response.json({ participants: await listParticipants({ db, conversationId }) });
});

export const POST = route(async (request: Request, { params }: Context) => {
  const user = await requireUser(request);
  const conversationId = parseId((await params).id, "Conversation");
  const body = await readJson(request, inviteSchema);
  const db = await getDb();
  await getOwnedConversation({ db, conversationId, userId: user.id });
  const participant = await inviteParticipant({ db, conversationId, email: body.email });
  return Response.json({ participant }, { status: 201 });
});
