import { setUserRole } from "@/db/admin-queries";
import { getDb } from "@/db/client";
import { respond } from "@/lib/api/respond";
import { readJson, requireAdmin, route } from "@/lib/api/route";
import { parseUserId } from "../../params";
import { updateUserSchema } from "../schema";

export const dynamic = "force-dynamic";

/** Change a user's role; demoting the last admin is refused (409). */
export const PUT = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  await requireAdmin(request);
  const userId = parseUserId((await params).id);
  const body = await readJson(request, updateUserSchema);
  return respond("PUT /api/admin/users/:id", {
    user: await setUserRole({ db: await getDb(), userId, role: body.role }),
  });
});
