// GET /api/experiments/:id/results/:position: one row's two payloads (items and request body, baseline and
// candidate), for the results page's diff. Only the experiment's owner may read them.
import { parsePathSegment } from "@/app/api/request-fields";
import { getDb } from "@/db/client";
import { getExperiment, getExperimentPayloads } from "@/db/experiment-queries";
import { respond } from "@/lib/api/respond";
import { parseId, requireUser, route } from "@/lib/api/route";
import { AppError } from "@/lib/domain/errors";
import type { ExperimentPayloads } from "@/lib/lab/experiment-figures";
import { positionSchema } from "./schema";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; position: string }> };

export const GET = route(async (request: Request, { params }: Context) => {
  const user = await requireUser(request);
  const path = await params;
  const experimentId = parseId(path.id, "Experiment");
  const position = parsePathSegment(positionSchema, path.position, "position");
  const db = await getDb();
  await getExperiment({ db, userId: user.id, experimentId });
  const stored = await getExperimentPayloads({ db, experimentId, position });
  if (stored === null) throw new AppError("not_found", "This row failed: it has no payloads.");
  return respond("GET /api/experiments/:id/results/:position", {
    payloads: JSON.parse(stored) as ExperimentPayloads,
  });
});
