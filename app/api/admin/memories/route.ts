import {
  createMemory,
  deleteMemory,
  listMemories,
  personaExists,
  updateMemory,
  userExists,
} from "@/db/admin-queries";
import { getDb } from "@/db/client";
import { readJson, requireAdmin, route } from "@/lib/api/route";
import { AppError } from "@/lib/domain/errors";
import { optionalQueryId } from "../params";
import { createMemorySchema, updateMemorySchema } from "./schema";

export const dynamic = "force-dynamic";

const SCOPES = ["user", "persona", "user_persona"] as const;

/** Filters: `?userId=`, `?personaId=`, `?scope=`. */
export const GET = route(async (request: Request) => {
  await requireAdmin(request);
  const url = new URL(request.url);
  const scope = url.searchParams.get("scope") || undefined;
  if (scope !== undefined && !SCOPES.includes(scope as (typeof SCOPES)[number])) {
    throw new AppError("bad_request", `scope must be one of: ${SCOPES.join(", ")}`);
  }
  const memories = await listMemories({
    db: await getDb(),
    userId: optionalQueryId(url, "userId", "user"),
    personaId: optionalQueryId(url, "personaId", "uuid"),
    scope: scope as (typeof SCOPES)[number] | undefined,
  });
  return Response.json({ memories });
});

export const POST = route(async (request: Request) => {
  await requireAdmin(request);
  const body = await readJson(request, createMemorySchema);
  const db = await getDb();
  if (body.userId && !(await userExists({ db, userId: body.userId }))) {
    throw new AppError("bad_request", `userId: no user with id ${body.userId}`);
  }
  if (body.personaId && !(await personaExists({ db, personaId: body.personaId }))) {
    throw new AppError("bad_request", `personaId: no persona with id ${body.personaId}`);
  }
  const memory = await createMemory({ db, fields: body });
  return Response.json({ memory }, { status: 201 });
});

/** Edit a memory's content, area or active flag: `{ id, content?, area?, active? }`. */
export const PUT = route(async (request: Request) => {
  await requireAdmin(request);
  const { id, ...changes } = await readJson(request, updateMemorySchema);
  return Response.json({ memory: await updateMemory({ db: await getDb(), memoryId: id, changes }) });
});

/** `?id=<memory id>`. */
export const DELETE = route(async (request: Request) => {
  await requireAdmin(request);
  const memoryId = optionalQueryId(new URL(request.url), "id", "uuid");
  if (!memoryId) throw new AppError("bad_request", "Say which memory to delete: ?id=<memory id>");
  await deleteMemory({ db: await getDb(), memoryId });
  return new Response(null, { status: 204 });
});
