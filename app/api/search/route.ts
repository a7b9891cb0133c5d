import { parseQuery } from "@/app/api/request-fields";
import { getDb } from "@/db/client";
import { searchConversations } from "@/db/search-queries";
import { respond } from "@/lib/api/respond";
import { requireUser, route } from "@/lib/api/route";
import { searchQuerySchema } from "./schema";

export const dynamic = "force-dynamic";

/** Conversations the user may read whose title or messages match `q`, with highlighted message snippets. */
export const GET = route(async (request: Request) => {
  const user = await requireUser(request);
  const { q } = parseQuery(searchQuerySchema, { q: new URL(request.url).searchParams.get("q") ?? undefined });
  const outcome = await searchConversations({ db: await getDb(), userId: user.id, query: q });
  return respond("GET /api/search", { query: q, ...outcome });
});
