// GET /api/conversations/:id/export?format=json|jsonl: the conversation as one archive that
// POST /api/conversations/import restores (json, the default), or its attempts as OpenAI chat-format JSONL for
// evals and fine-tuning (jsonl). Anyone who may read the conversation may export what they can read of it.
import { getDb } from "@/db/client";
import { getReadableConversation } from "@/db/conversation-queries";
import { parseId, requireUser, route } from "@/lib/api/route";
import { exportAttemptsAsJsonl, exportConversation } from "@/lib/export/export-conversation";
import { exportQuerySchema } from "./schema";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const user = await requireUser(request);
  const conversationId = parseId((await params).id, "Conversation");
  const { format } = exportQuerySchema.parse(request.url);
  const db = await getDb();
  const conversation = await getReadableConversation({ db, conversationId, userId: user.id });
  const filename = `glassbox-${conversationId}.${format === "jsonl" ? "jsonl" : "json"}`;
  const disposition = { "content-disposition": `attachment; filename="${filename}"` };
  if (format === "jsonl") {
    const jsonl = await exportAttemptsAsJsonl({ db, conversationId, readerId: user.id });
    return new Response(jsonl, {
      headers: { "content-type": "application/jsonl; charset=utf-8", ...disposition },
    });
  }
  return Response.json(await exportConversation({ db, conversation, readerId: user.id }), {
    headers: disposition,
  });
});
