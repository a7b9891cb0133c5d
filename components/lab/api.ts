// The lab's fetchers (docs/lab.md): datasets, experiments and a row's two payloads, typed by lib/api/responses.ts.
import { apiFetch } from "@/components/ui/api-client";
import type { ApiOutput } from "@/lib/api/responses";

export type DatasetSummary = ApiOutput<"GET /api/datasets">["datasets"][number];
export type ExperimentBody = ApiOutput<"GET /api/experiments/:id">["experiment"];
export type ExperimentRow = ExperimentBody["results"][number];
export type RowPayloads = ApiOutput<"GET /api/experiments/:id/results/:position">["payloads"];

export const datasetsKey = ["datasets"] as const;

export function listDatasets() {
  return apiFetch<ApiOutput<"GET /api/datasets">>("/api/datasets");
}

export function createDataset(name: string, conversationIds: string[]) {
  return apiFetch<ApiOutput<"POST /api/datasets">>("/api/datasets", { body: { name, conversationIds } });
}

export function getDataset(id: string) {
  return apiFetch<ApiOutput<"GET /api/datasets/:id">>(`/api/datasets/${id}`);
}

export function deleteDataset(id: string) {
  return apiFetch<void>(`/api/datasets/${id}`, { method: "DELETE" });
}

export function startExperiment(
  datasetId: string,
  body: { candidate: Record<string, unknown>; live: boolean },
) {
  return apiFetch<ApiOutput<"POST /api/datasets/:id/experiments">>(`/api/datasets/${datasetId}/experiments`, {
    body,
  });
}

export function getExperiment(id: string) {
  return apiFetch<ApiOutput<"GET /api/experiments/:id">>(`/api/experiments/${id}`);
}

export function getRowPayloads(experimentId: string, position: number) {
  return apiFetch<ApiOutput<"GET /api/experiments/:id/results/:position">>(
    `/api/experiments/${experimentId}/results/${position}`,
  );
}
