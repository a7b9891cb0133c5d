// An experiment as the API shows it: status, progress, the totals and the rows (docs/lab.md). A job runs in the
// process that started it; one left "queued" or "running" by a server that stopped is marked failed when read, once
// its heartbeat (the row's updatedAt, moved by every batch of rows) is older than STALE_AFTER_MS and no job of
// this process runs it.

import "server-only";
import type { Database } from "@/db/client";
import { listExperimentResults, setExperimentStatus } from "@/db/experiment-queries";
import type { Experiment } from "@/db/schema";
import { type ExperimentRowSummary, experimentTotals } from "./experiment-figures";
import { isRunningHere } from "./run-experiment";

/** Longer than any batch of rows takes, so a job of another instance is never taken for a dead one. */
export const STALE_AFTER_MS = 120_000;

export const INTERRUPTED_MESSAGE =
  "The server running this experiment stopped before it finished: run it again.";

export async function experimentView({
  db,
  experiment,
  results,
  now = new Date(),
}: {
  db: Database;
  experiment: Experiment;
  /** The rows, when already read; read here when absent. */
  results?: ExperimentRowSummary[];
  now?: Date;
}) {
  let { status, error } = experiment;
  const unfinished = status === "queued" || status === "running";
  if (unfinished && !isRunningHere(experiment.id)) {
    if (now.getTime() - experiment.updatedAt.getTime() > STALE_AFTER_MS) {
      status = "failed";
      error = INTERRUPTED_MESSAGE;
      await setExperimentStatus({ db, experimentId: experiment.id, status, error });
    }
  }
  const rows =
    results ??
    ((await listExperimentResults({ db, experimentId: experiment.id })) as unknown as ExperimentRowSummary[]);
  return {
    id: experiment.id,
    datasetId: experiment.datasetId,
    status,
    error,
    live: experiment.live,
    text: experiment.text,
    candidate: experiment.candidate,
    progress: { done: rows.length, total: experiment.total },
    totals: experimentTotals(rows),
    results: rows,
    createdAt: experiment.createdAt,
  };
}
