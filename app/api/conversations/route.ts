import { parseQuery } from "@/app/api/request-fields";
import { getDb } from "@/db/client";
import { createConversation, listConversations } from "@/db/conversation-queries";
import { getDefaultPersona, getPersona } from "@/db/persona-queries";
import { DEFAULT_CONVERSATION_TITLE } from "@/db/title-queries";
import { respond } from "@/lib/api/respond";
import { readJson, requireUser, route } from "@/lib/api/route";
import { createConversationSchema, listConversationsQuerySchema } from "./schema";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => {
  const user = await requireUser(request);
  const { q } = parseQuery(listConversationsQuerySchema, {
    q: new URL(request.url).searchParams.get("q") ?? undefined,
  });
  const conversations = await listConversations({
    db: await getDb(),
    userId: user.id,
    titleQuery: q,
  });
  return respond("GET /api/conversations", { conversations });
});

export const POST = route(async (request: Request) => {
  const user = await requireUser(request);
  const body = await readJson(request, createConversationSchema);
  const db = await getDb();
  const persona = body.personaId
    ? await getPersona({ db, personaId: body.personaId })
    : await getDefaultPersona({ db });
  const conversation = await createConversation({
    db,
    ownerId: user.id,
    personaId: persona.id,
    title: body.title ?? DEFAULT_CONVERSATION_TITLE,
  });
  return respond("POST /api/conversations", { id: conversation.id, conversation }, { status: 201 });
});
