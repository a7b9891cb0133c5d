// POST /api/datasets/:id/experiments { candidate, live?, text? }: starts an experiment over the caller's dataset
// (docs/lab.md), 202 { experiment } at once; the job runs in the background (GET /api/experiments/:id).
import { insertExperiment } from "@/db/experiment-queries";
import { respond } from "@/lib/api/respond";
import { readJson, route } from "@/lib/api/route";
import { resolveCandidate } from "@/lib/lab/candidate";
import { experimentView } from "@/lib/lab/experiment-view";
import { startExperiment } from "@/lib/lab/run-experiment";
import { type DatasetContext, requireCallersDataset } from "../callers-dataset";
import { startExperimentSchema } from "./schema";

export const dynamic = "force-dynamic";

export const POST = route(async (request: Request, { params }: DatasetContext) => {
  // Someone else's dataset is not found, whatever the body says.
  const { user, db, datasetId, dataset } = await requireCallersDataset(request, params);
  const body = await readJson(request, startExperimentSchema);
  const candidate = await resolveCandidate({ db, user, request: body.candidate });
  const experiment = await insertExperiment({
    db,
    userId: user.id,
    datasetId,
    candidate: body.candidate,
    live: body.live,
    text: body.text,
    total: dataset.conversationIds.length,
  });
  startExperiment({ db, user, experiment, conversationIds: dataset.conversationIds, candidate });
  return respond(
    "POST /api/datasets/:id/experiments",
    { experiment: await experimentView({ db, experiment, results: [] }) },
    { status: 202 },
  );
});
