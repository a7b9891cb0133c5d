import { getDb } from "@/db/client";
import { searchConversations } from "@/db/search-queries";
import { requireUser, route } from "@/lib/api/route";
import { AppError } from "@/lib/errors";
import { searchQuerySchema } from "./schema";

export const dynamic = "force-dynamic";

/** Conversations the user may read whose title or messages match `q`, with highlighted message snippets. */
export const GET = route(async (request: Request) => {
  const user = await requireUser(request);
  const parsed = searchQuerySchema.safeParse({
    q: new URL(request.url).searchParams.get("q") ?? undefined,
  });
  if (!parsed.success) throw new AppError("bad_request", parsed.error.issues[0].message);
  const outcome = await searchConversations({ db: await getDb(), userId: user.id, query: parsed.data.q });
  return Response.json({ query: parsed.data.q, ...outcome });
});
