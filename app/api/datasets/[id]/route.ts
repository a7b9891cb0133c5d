// GET /api/datasets/:id: one of the caller's datasets and its experiments, newest first; DELETE removes it with its
// experiments (204). Anyone else's is not found.
import { deleteDataset } from "@/db/dataset-queries";
import { listDatasetExperiments } from "@/db/experiment-queries";
import { respond } from "@/lib/api/respond";
import { route } from "@/lib/api/route";
import { type DatasetContext, requireCallersDataset, requireDatasetPath } from "./callers-dataset";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: DatasetContext) => {
  const { user, db, datasetId, dataset } = await requireCallersDataset(request, params);
  const experiments = await listDatasetExperiments({ db, userId: user.id, datasetId });
  return respond("GET /api/datasets/:id", { dataset, experiments });
});

export const DELETE = route(async (request: Request, { params }: DatasetContext) => {
  const { user, db, datasetId } = await requireDatasetPath(request, params);
  await deleteDataset({ db, userId: user.id, datasetId });
  return new Response(null, { status: 204 });
});
