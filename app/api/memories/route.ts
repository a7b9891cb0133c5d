// GET /api/memories: the signed-in user's memories in use (what the personas remember about them, and summaries of
// their conversations kept as memories), newest first, and their memory preferences.
import { getDb } from "@/db/client";
import { getMemoryPreferences, listOwnMemories } from "@/db/memory-queries";
import { respond } from "@/lib/api/respond";
import { requireUser, route } from "@/lib/api/route";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => {
  const user = await requireUser(request);
  const db = await getDb();
  const [memories, preferences] = await Promise.all([
    listOwnMemories({ db, userId: user.id }),
    getMemoryPreferences({ db, userId: user.id }),
  ]);
  return respond("GET /api/memories", { memories, preferences });
});
