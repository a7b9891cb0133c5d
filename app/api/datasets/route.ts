// POST /api/datasets { name, conversationIds }: a new dataset of conversations the caller may read, 201
// { dataset } (a conversation they may not read is a 404 naming it, and nothing is stored); GET: the caller's own.
import { getDb } from "@/db/client";
import { createDataset, listDatasets } from "@/db/dataset-queries";
import { respond } from "@/lib/api/respond";
import { readJson, requireUser, route } from "@/lib/api/route";
import { createDatasetSchema } from "./schema";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => {
  const user = await requireUser(request);
  return respond("GET /api/datasets", {
    datasets: await listDatasets({ db: await getDb(), userId: user.id }),
  });
});

export const POST = route(async (request: Request) => {
  const user = await requireUser(request);
  const body = await readJson(request, createDatasetSchema);
  const dataset = await createDataset({ db: await getDb(), userId: user.id, ...body });
  return respond("POST /api/datasets", { dataset }, { status: 201 });
});
