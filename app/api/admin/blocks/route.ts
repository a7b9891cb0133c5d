import { deleteBlock, listBlocks, personaExists, upsertBlock, userExists } from "@/db/admin-queries";
import { getDb } from "@/db/client";
import { readJson, requireAdmin, route } from "@/lib/api/route";
import { AppError } from "@/lib/domain/errors";
import { optionalQueryId } from "../params";
import { setBlockSchema } from "./schema";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => {
  await requireAdmin(request);
  return Response.json({ blocks: await listBlocks({ db: await getDb() }) });
});

/** Mute or block a user from a persona; one row per persona × user, so setting it again replaces it. */
export const POST = route(async (request: Request) => {
  const admin = await requireAdmin(request);
  const body = await readJson(request, setBlockSchema);
  const db = await getDb();
  if (!(await personaExists({ db, personaId: body.personaId }))) {
    throw new AppError("bad_request", `personaId: no persona with id ${body.personaId}`);
  }
  if (!(await userExists({ db, userId: body.userId }))) {
    throw new AppError("bad_request", `userId: no user with id ${body.userId}`);
  }
  const now = Date.now();
  const block = await upsertBlock({
    db,
    personaId: body.personaId,
    userId: body.userId,
    blockType: body.blockType,
    reason: body.reason,
    expiresAt: body.durationMinutes === null ? null : new Date(now + body.durationMinutes * 60_000),
    setBy: admin.id,
  });
  return Response.json({ block }, { status: 201 });
});

/** Lift a block: `?id=` or `?personaId=&userId=`. */
export const DELETE = route(async (request: Request) => {
  await requireAdmin(request);
  const url = new URL(request.url);
  const blockId = optionalQueryId(url, "id", "uuid");
  const personaId = optionalQueryId(url, "personaId", "uuid");
  const userId = optionalQueryId(url, "userId", "user");
  if (!blockId && !(personaId && userId)) {
    throw new AppError(
      "bad_request",
      "Say which block to lift: ?id=<block id> or ?personaId=<id>&userId=<id>",
    );
  }
  const deleted = await deleteBlock({ db: await getDb(), blockId, personaId, userId });
  if (!deleted) throw new AppError("not_found", "Block not found");
  return new Response(null, { status: 204 });
});
