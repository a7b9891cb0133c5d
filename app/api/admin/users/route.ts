import { listUsers } from "@/db/admin-queries";
import { getDb } from "@/db/client";
import { requireAdmin, route } from "@/lib/api/route";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => {
  await requireAdmin(request);
  return Response.json({ users: await listUsers({ db: await getDb() }) });
});
