// GET /api/attempts?model=&status=&kind=&tag=&action=&from=&to=&before=&limit=: model calls across every
// conversation the caller may read, newest first, with their costs and without their payloads (each opens with GET /api/attempts/:id).
// `nextBefore` is the cursor of the next page, null on the last one.
import { searchAttempts } from "@/db/attempt-queries";
import { getDb } from "@/db/client";
import { requireUser, route } from "@/lib/api/route";
import { withAttemptCosts } from "@/lib/chat/attempts/turn-costs";
import { AppError } from "@/lib/domain/errors";
import { attemptSearchQuerySchema } from "./schema";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => {
  const user = await requireUser(request);
  const parsed = attemptSearchQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError("bad_request", issue?.message ?? "The filters are not valid.");
  }
  const { model, before, limit, ...filters } = parsed.data;
  const db = await getDb();
  const rows = await searchAttempts({
    db,
    search: {
      ...filters,
      readerId: user.id,
      modelId: model,
      before,
      limit: limit + 1,
    },
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return Response.json({
    attempts: await withAttemptCosts({ db, calls: page }),
    nextBefore: rows.length > limit && last ? `${last.createdAt.toISOString()}_${last.id}` : null,
  });
});
