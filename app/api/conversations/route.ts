import { getDb } from "@/db/client";
import { createConversation, getDefaultPersona, getPersona, listConversations } from "@/db/queries";
import { readJson, requireUser, route } from "@/lib/api/route";
import { createConversationSchema } from "./schema";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => {
  const user = await requireUser(request);
  return Response.json({ conversations: await listConversations({ db: await getDb(), userId: user.id }) });
});

export const POST = route(async (request: Request) => {
  const user = await requireUser(request);
  const body = await readJson(request, createConversationSchema);
  const db = await getDb();
  const persona = body.personaId ? await getPersona({ db, personaId: body.personaId }) : await getDefaultPersona({ db });
  const conversation = await createConversation({
    db,
    ownerId: user.id,
    personaId: persona.id,
    title: body.title ?? "New conversation",
  });
  return Response.json({ id: conversation.id, conversation }, { status: 201 });
});
