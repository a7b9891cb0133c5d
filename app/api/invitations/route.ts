// GET /api/invitations: the conversations the signed-in user is invited to and has not answered yet, with who
// asked. Accept with PATCH /api/conversations/:id/participants/:userId, decline with DELETE on the same address.
import { getDb } from "@/db/client";
import { listInvitations } from "@/db/participant-queries";
import { respond } from "@/lib/api/respond";
import { requireUser, route } from "@/lib/api/route";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => {
  const user = await requireUser(request);
  return respond("GET /api/invitations", {
    invitations: await listInvitations({ db: await getDb(), userId: user.id }),
  });
});
