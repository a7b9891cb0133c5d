// PUT /api/memories/preferences { sessionSummaries }: whether a summary of the signed-in user's conversation is kept
// as a memory the persona sees in their other conversations with it. Existing memories stay (delete them on their
// own); it applies to the next summary.
import { getDb } from "@/db/client";
import { setMemoryPreferences } from "@/db/memory-queries";
import { respond } from "@/lib/api/respond";
import { readJson, requireUser, route } from "@/lib/api/route";
import { memoryPreferencesSchema } from "../schema";

export const dynamic = "force-dynamic";

export const PUT = route(async (request: Request) => {
  const user = await requireUser(request);
  const preferences = await readJson(request, memoryPreferencesSchema);
  return respond("PUT /api/memories/preferences", {
    preferences: await setMemoryPreferences({ db: await getDb(), userId: user.id, preferences }),
  });
});
