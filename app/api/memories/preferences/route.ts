// PUT /api/memories/preferences { sessionSummaries }: whether a summary of the signed-in user's conversation is kept
// as a memory the persona sees in their other conversations with it. Existing memories stay (delete them on their
// own); it applies to the next summary, and with `keepSummaryOf` to that conversation's active summary now.
import { getDb } from "@/db/client";
import { getOwnedConversation } from "@/db/conversation-queries";
import { setMemoryPreferences } from "@/db/memory-queries";
import { keepActiveSummaryAsMemory } from "@/db/summary-queries";
import { respond } from "@/lib/api/respond";
import { readJson, requireUser, route } from "@/lib/api/route";
import { memoryPreferencesSchema } from "../schema";

export const dynamic = "force-dynamic";

export const PUT = route(async (request: Request) => {
  const user = await requireUser(request);
  const { keepSummaryOf, ...preferences } = await readJson(request, memoryPreferencesSchema);
  const db = await getDb();
  // Checked before anything is stored: a conversation of someone else's is refused with nothing changed.
  const conversation = keepSummaryOf
    ? await getOwnedConversation({
        db,
        conversationId: keepSummaryOf,
        userId: user.id,
        refusal: "Only the conversation's owner can keep its summary as a memory.",
      })
    : null;
  const stored = await setMemoryPreferences({ db, userId: user.id, preferences });
  if (conversation) {
    await keepActiveSummaryAsMemory({
      db,
      conversationId: conversation.id,
      owner: { userId: user.id, personaId: conversation.personaId },
    });
  }
  return respond("PUT /api/memories/preferences", { preferences: stored });
});
