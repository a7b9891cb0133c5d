// GET /api/datasets/:id: one of the caller's datasets and its experiments, newest first; DELETE removes it with its
// experiments (204). Anyone else's is not found.
import { getDb } from "@/db/client";
import { deleteDataset, getDataset } from "@/db/dataset-queries";
import { listDatasetExperiments } from "@/db/experiment-queries";
import { respond } from "@/lib/api/respond";
import { parseId, requireUser, route } from "@/lib/api/route";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const GET = route(async (request: Request, { params }: Context) => {
  const user = await requireUser(request);
  const datasetId = parseId((await params).id, "Dataset");
  const db = await getDb();
  const dataset = await getDataset({ db, userId: user.id, datasetId });
  const experiments = await listDatasetExperiments({ db, userId: user.id, datasetId });
  return respond("GET /api/datasets/:id", { dataset, experiments });
});

export const DELETE = route(async (request: Request, { params }: Context) => {
  const user = await requireUser(request);
  const datasetId = parseId((await params).id, "Dataset");
  await deleteDataset({ db: await getDb(), userId: user.id, datasetId });
  return new Response(null, { status: 204 });
});
