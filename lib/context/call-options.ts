// A caller's own options for one call (BaseContext.callOptions, sent by gateway clients), applied to the serialised
// request within the persona's limits: the output length never above what the budget reserved for it (the context
// was fitted to that reserve), temperature and top-p as asked. What was applied, and any value that was lowered, is
// traced, so the inspector shows it beside the request body that carries it. The stop strings join the persona's
// in the stop-strings stage.

import type { CallOptions, TraceEvent } from "@/lib/domain/types";
import type { SerialisedRequest } from "./phases";
import type { StageResult } from "./stage";

export function withCallOptions(
  serialised: StageResult<SerialisedRequest>,
  callOptions: CallOptions | undefined,
): StageResult<SerialisedRequest> {
  if (!callOptions) return serialised;
  const { temperature, topP, maxOutputTokens: asked, stop } = callOptions;
  const request: SerialisedRequest = { ...serialised.value };
  if (temperature !== undefined) request.temperature = temperature;
  if (topP !== undefined) request.topP = topP;
  const reserved = serialised.value.maxOutputTokens;
  let lowered = false;
  if (asked !== undefined) {
    lowered = reserved !== undefined && asked > reserved;
    request.maxOutputTokens = lowered ? reserved : asked;
  }
  const applied: Record<string, unknown> = {};
  if (temperature !== undefined) applied.temperature = temperature;
  if (topP !== undefined) applied.topP = topP;
  if (asked !== undefined) applied.maxOutputTokens = request.maxOutputTokens;
  if (stop !== undefined) applied.stop = stop;
  const event: TraceEvent = {
    stage: "serialise",
    action: "applied-call-options",
    reason: lowered
      ? `the caller's options were applied; its ${asked} output tokens were lowered to the ${reserved} the budget reserved`
      : `the caller's options were applied: ${Object.keys(applied).join(", ") || "none"}`,
    level: lowered ? "warning" : "info",
    details: { asked: { ...callOptions }, applied },
  };
  return { value: request, trace: [...serialised.trace, event] };
}
