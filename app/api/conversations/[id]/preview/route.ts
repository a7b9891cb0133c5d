import { getDb } from "@/db/client";
import { parseId, readJson, requireUser, route } from "@/lib/api/route";
import { previewTurn } from "@/lib/chat/turn/preview-turn";
import { previewRequestSchema } from "./schema";

export const dynamic = "force-dynamic";

export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const user = await requireUser(request);
  const conversationId = parseId((await params).id, "Conversation");
  const body = await readJson(request, previewRequestSchema);
  const preview = await previewTurn({ db: await getDb(), user, conversationId, ...body });
  return Response.json({ preview });
});
