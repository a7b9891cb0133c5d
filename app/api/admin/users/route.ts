import { listUsers } from "@/db/admin-queries";
import { getDb } from "@/db/client";
import { respond } from "@/lib/api/respond";
import { requireAdmin, route } from "@/lib/api/route";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => {
  await requireAdmin(request);
  return respond("GET /api/admin/users", { users: await listUsers({ db: await getDb() }) });
});
