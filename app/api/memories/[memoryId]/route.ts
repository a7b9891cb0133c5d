// PATCH /api/memories/:memoryId { content }: correct one of your memories; DELETE: delete it for good (204). The
// next turn sees the change. Someone else's memory is not found (404), whoever asks.
import { getDb } from "@/db/client";
import { deleteOwnMemory, updateOwnMemory } from "@/db/memory-queries";
import { respond } from "@/lib/api/respond";
import { parseId, readJson, requireUser, route } from "@/lib/api/route";
import { memoryChangeSchema } from "../schema";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ memoryId: string }> };

export const PATCH = route(async (request: Request, { params }: Context) => {
  const user = await requireUser(request);
  const memoryId = parseId((await params).memoryId, "Memory");
  const { content } = await readJson(request, memoryChangeSchema);
  await updateOwnMemory({ db: await getDb(), userId: user.id, memoryId, content });
  return respond("PATCH /api/memories/:memoryId", { memory: { id: memoryId, content } });
});

export const DELETE = route(async (request: Request, { params }: Context) => {
  const user = await requireUser(request);
  const memoryId = parseId((await params).memoryId, "Memory");
  await deleteOwnMemory({ db: await getDb(), userId: user.id, memoryId });
  return new Response(null, { status: 204 });
});
