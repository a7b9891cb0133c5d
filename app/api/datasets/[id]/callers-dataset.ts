// The opening the routes of one dataset share: who asks, and the dataset of the path, which must be theirs (anyone
// else's is simply not found).

import { getDb } from "@/db/client";
import { getDataset } from "@/db/dataset-queries";
import { parseId, requireUser } from "@/lib/api/route";

/** The route context of a dataset's path. */
export type DatasetContext = { params: Promise<{ id: string }> };

/** The signed-in user, the path's dataset id (else 401 / 404), and the database. */
export async function requireDatasetPath(request: Request, params: DatasetContext["params"]) {
  const user = await requireUser(request);
  const datasetId = parseId((await params).id, "Dataset");
  return { user, datasetId, db: await getDb() };
}

/** As requireDatasetPath, with the dataset itself, which must be the user's. */
export async function requireCallersDataset(request: Request, params: DatasetContext["params"]) {
  const path = await requireDatasetPath(request, params);
  const dataset = await getDataset({ db: path.db, userId: path.user.id, datasetId: path.datasetId });
  return { ...path, dataset };
}
