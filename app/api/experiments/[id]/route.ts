// GET /api/experiments/:id: the caller's experiment with its progress, totals and rows (docs/lab.md);
// ?format=csv or ?format=json downloads the rows (and, as JSON, the totals) as a file. Anyone else's is not found.
import { parseQuery } from "@/app/api/request-fields";
import { getDb } from "@/db/client";
import { getExperiment } from "@/db/experiment-queries";
import { respond } from "@/lib/api/respond";
import { parseId, requireUser, route } from "@/lib/api/route";
import { experimentCsv } from "@/lib/lab/experiment-figures";
import { experimentView } from "@/lib/lab/experiment-view";
import { experimentQuerySchema } from "./schema";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const GET = route(async (request: Request, { params }: Context) => {
  const user = await requireUser(request);
  const experimentId = parseId((await params).id, "Experiment");
  const { format } = parseQuery(experimentQuerySchema, {
    format: new URL(request.url).searchParams.get("format") ?? undefined,
  });
  const db = await getDb();
  const experiment = await experimentView({
    db,
    experiment: await getExperiment({ db, userId: user.id, experimentId }),
  });
  if (format === undefined) return respond("GET /api/experiments/:id", { experiment });
  const file = `experiment-${experimentId}.${format}`;
  const body = format === "csv" ? experimentCsv(experiment.results) : JSON.stringify({ experiment }, null, 2);
  return new Response(body, {
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${file}"`,
    },
  });
});
