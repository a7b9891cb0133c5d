"use client";
import { useQuery } from "@tanstack/react-query";
import { PayloadDiffView } from "@/components/inspector/payload-diff-view";
import type { PayloadView } from "@/components/inspector/types";
// One experiment row opened: the candidate's payload against today's, item by item and byte by byte (the
// inspector's payload diff), and, live, the two replies side by side.
import { ErrorMessage } from "@/components/ui/error-message";
import { type ExperimentRow, getRowPayloads, type RowPayloads } from "./api";

function payloadView(payload: RowPayloads["baseline"]): PayloadView {
  return {
    modelId: payload.modelId,
    provider: payload.provider as PayloadView["provider"],
    items: payload.items as PayloadView["items"],
    trace: [],
    budget: null,
    usage: null,
    request: payload.request,
  };
}

export function RowDiff({
  experimentId,
  position,
  row,
}: {
  experimentId: string;
  position: number;
  row: ExperimentRow;
}) {
  const payloads = useQuery({
    queryKey: ["experiment-row", experimentId, position],
    queryFn: () => getRowPayloads(experimentId, position),
  });
  return (
    <div className="space-y-3" data-testid="experiment-row-detail">
      {row.live && (
        <div className="grid grid-cols-2 gap-2 text-sm" data-testid="experiment-live-replies">
          {(["baseline", "candidate"] as const).map((side) => (
            <div key={side} className="rounded-lg border border-zinc-200 p-2 dark:border-zinc-800">
              <p className="text-xs text-zinc-500">{side === "baseline" ? "As today" : "Candidate"}</p>
              <p className="whitespace-pre-wrap" data-testid={`live-reply-${side}`}>
                {row.live?.[side].text}
              </p>
            </div>
          ))}
        </div>
      )}
      <ErrorMessage message={payloads.error?.message} testId="row-diff-error" />
      {payloads.data && (
        <PayloadDiffView
          current={payloadView(payloads.data.payloads.candidate)}
          previous={payloadView(payloads.data.payloads.baseline)}
          previousLabel="the payload as today"
        />
      )}
    </div>
  );
}
