// Writes one attempt row: the items and trace it was built from, the resolved settings and their version, every
// HTTP request's exact body (base64 media elided, rebuildable from attachments), the response, usage, the model's
// prices of the moment, and timings.

import "server-only";
import { appendFileSync } from "node:fs";
import type { LanguageModelUsage } from "ai";
import { v7 as uuidv7 } from "uuid";
import { insertAttempt } from "@/db/attempt-queries";
import type { AttemptUsage, PrivateMemoryUse, RecordedRequest, RecordedWireMap } from "@/db/attempt-records";
import type { Database } from "@/db/client";
import { env } from "@/lib/config/env";
import type { ResolvedContext } from "@/lib/context/resolve-for-model";
import type { AttemptKind, BaseContext, ContextItem } from "@/lib/domain/types";
import { logger } from "@/lib/logger";
import { elideMedia } from "@/lib/providers/media-elision";
import type { CapturedRequest } from "@/lib/providers/request-capture";
import { isJsonObjectText, wireFormatOfUrl } from "@/lib/providers/wire-elements";
import { reconcileWire, wireMapProblems } from "@/lib/providers/wire-reconciliation";
import { recordAttemptSpan } from "@/lib/telemetry/attempt-spans";
import { privateMemoriesInPayload } from "./private-memories";

/** Defined with the attempt row that stores it; recordAttempt's callers import it from here. */
export type { AttemptUsage };

/** The provider's usage (the SDK's, normalised across providers) as an attempt records it. */
export function attemptUsage(usage: LanguageModelUsage): AttemptUsage {
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cachedInputTokens: usage.inputTokenDetails?.cacheReadTokens,
    cacheWriteTokens: usage.inputTokenDetails?.cacheWriteTokens,
    ...(usage.outputTokenDetails?.reasoningTokens
      ? { reasoningTokens: usage.outputTokenDetails.reasoningTokens }
      : {}),
  };
}

/** What one HTTP request of an attempt carried beyond the payload: in a tool loop, the earlier steps' output. */
export interface AttemptStep {
  /** Items the loop added before this request: the previous step's reply (reasoning, text, calls) and results. */
  addedItems: ContextItem[];
  /** The provider adapter's warnings for this request. */
  warnings: string[];
}

export interface AttemptRecord {
  /** The row's id when the caller named the attempt before it ended (the gateway's x-glassbox-attempt-id). */
  id?: string;
  conversationId: string;
  /** The reply's turn; null for a call that answers no turn (a summary, a title, a write-as-me draft). */
  turnId: string | null;
  kind: AttemptKind;
  /** A replay's source attempt. */
  replayOf?: string;
  attemptNumber: number;
  stepNumber?: number;
  modelId: string;
  status: "ok" | "error" | "stopped";
  error: { code: string; message: string; status?: number } | null;
  /** Null when phase B itself refused (the input does not fit the model). */
  resolved: ResolvedContext | null;
  /** What the call was built from: phase A's context, or for a call outside the pipeline its settings alone. */
  base: Pick<BaseContext, "items" | "trace" | "settings" | "stageTimings">;
  settingsVersion: number;
  requests: CapturedRequest[];
  /** Per request, in order: what the tool loop added before it and the adapter's warnings. */
  steps?: AttemptStep[];
  response: { text: string; finishReason: string | null; usage: AttemptUsage | null } | null;
  timings: { queuedAt: string; firstByteMs?: number; firstTokenMs?: number; doneMs?: number };
  /**
   * The private memories the payload carries, when the caller knows them: a resent payload carries its source's
   * (`privateMemoriesOfSource`). Otherwise they are matched from the items against the memories when recorded.
   */
  privateMemories?: PrivateMemoryUse[];
}

export async function recordAttempt(db: Database, record: AttemptRecord): Promise<string> {
  const items = record.resolved?.items ?? record.base.items;
  const id = await insertAttempt({
    db,
    attempt: {
      id: record.id ?? uuidv7(),
      conversationId: record.conversationId,
      turnId: record.turnId,
      kind: record.kind,
      replayOf: record.replayOf ?? null,
      attemptNumber: record.attemptNumber,
      stepNumber: record.stepNumber ?? 0,
      modelId: record.modelId,
      status: record.status,
      error: record.error,
      // Items carry media as data URLs: store them elided like the bodies. The elided JSON text goes to Postgres as
      // it is: parsing it back only for the driver to serialise it again cost a turn ~1 ms per 100 KB of items.
      itemsJson: elideMedia(JSON.stringify(items)).body,
      trace: record.resolved?.trace ?? record.base.trace,
      settings: record.base.settings,
      settingsVersion: record.settingsVersion,
      requests: recordedRequests(items as ContextItem[], record),
      // Stored with the model's prices of this moment (insertAttempt): its cost is counted at them.
      responseJson: record.response ? JSON.stringify(record.response) : null,
      // Whose private memories the payload carries: other readers get them redacted.
      privateMemories:
        record.privateMemories ??
        (await privateMemoriesInPayload({
          db,
          conversationId: record.conversationId,
          turnId: record.turnId,
          items: record.base.items,
        })),
      // The pipeline's own time, stage by stage: phase A (once per turn) then this attempt's phase B.
      timings: {
        ...record.timings,
        stages: [
          ...(record.base.stageTimings ?? []).map((timing) => ({ ...timing, phase: "A" as const })),
          ...(record.resolved?.stageTimings ?? []).map((timing) => ({ ...timing, phase: "B" as const })),
        ],
      },
    },
  });
  recordAttemptSpan({
    attemptId: id,
    turnId: record.turnId,
    conversationId: record.conversationId,
    kind: record.kind,
    modelId: record.modelId,
    status: record.status,
    error: record.error,
    requestBody: record.requests.at(-1)?.body ?? null,
    response: record.response,
    queuedAt: record.timings.queuedAt,
    doneMs: record.timings.doneMs,
  });
  return id;
}

/**
 * Each request as stored: its body with media elided, and where each item it carried sits in that body (the
 * attempt's items, then what the tool loop added before it). The map is made on the elided body: elision only
 * shortens strings, so its pointers hold in the restored body too.
 */
function recordedRequests(items: ContextItem[], record: AttemptRecord): RecordedRequest[] {
  let carried = items;
  return record.requests.map((request, index) => {
    const elided = elideMedia(request.body);
    const step = record.steps?.[index];
    const addedItems = index > 0 ? (step?.addedItems ?? []) : [];
    carried = [...carried, ...addedItems];
    const stored: RecordedRequest = {
      url: request.url,
      body: elided.body,
      status: request.status,
      elidedMedia: elided.media,
    };
    const format = wireFormatOfUrl(request.url);
    if (format === null || !isJsonObjectText(elided.body)) return stored;
    const warnings = step?.warnings ?? [];
    const map = reconcileWire({ format, body: elided.body, items: carried, warnings });
    checkWireMap(record, index, () => wireMapProblems({ format, body: elided.body, items: carried, map }));
    const wire: RecordedWireMap = { ...map, warnings, addedItems };
    return { ...stored, wire };
  });
}

/** Under the test command, every recorded map is checked against its body; a violation fails the run. */
function checkWireMap(record: AttemptRecord, requestIndex: number, problems: () => string[]) {
  const file = env().GLASSBOX_WIRE_CHECK_FILE;
  if (!file) return;
  const found = problems();
  if (found.length === 0) return;
  const violation = { kind: record.kind, modelId: record.modelId, requestIndex, problems: found };
  logger.error(violation, "wire map violates its invariants");
  appendFileSync(file, `${JSON.stringify(violation)}\n`);
}
