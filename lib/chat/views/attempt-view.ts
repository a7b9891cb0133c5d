// The API shape of an attempt: what was sent, item by item, why, and the exact body as a string with
// its media put back, so it can be replayed elsewhere byte for byte. Other people's private memories are
// redacted for the reader (./private-memories.ts).

import "server-only";
import { loadConversationMediaBySha256 } from "@/db/attachment-queries";
import { listOtherModelCalls, listReasoningOfTurns } from "@/db/attempt-queries";
import type { RecordedRequest, WireAddress } from "@/db/attempt-records";
import type { Database } from "@/db/client";
import { getModel } from "@/db/model-queries";
import type { Attempt, Model } from "@/db/schema";
import { listTurnsWithAttempts } from "@/db/turn-queries";
import { attemptCost, attemptCostToday } from "@/lib/chat/attempts/attempt-cost";
import { redactPrivateMemories } from "@/lib/chat/attempts/private-memories";
import { toModelDescriptor } from "@/lib/chat/turn/stored-rows";
import { usableTokenBudget } from "@/lib/context/budget-limits";
import { restoreMedia } from "@/lib/providers/media-elision";
import { attemptReasoning } from "./reasoning-view";

/**
 * Every model call of a conversation as `readerId` may see it: the turns with their attempt rows, the calls that
 * answer no turn (summaries, titles, write-as-me drafts), and the views of both (the inspector's and the export's).
 */
export async function conversationAttemptViews({
  db,
  conversationId,
  readerId,
}: {
  db: Database;
  conversationId: string;
  readerId: string;
}) {
  const [turns, otherCalls] = await Promise.all([
    listTurnsWithAttempts({ db, conversationId }),
    listOtherModelCalls({ db, conversationId }),
  ]);
  const views = await toAttemptViews({
    db,
    conversationId,
    attemptRows: [...turns.flatMap((turn) => turn.attempts), ...otherCalls],
    readerId,
  });
  return { turns, otherCalls, views };
}

export async function toAttemptViews({
  db,
  conversationId,
  attemptRows: storedRows,
  readerId,
}: {
  db: Database;
  conversationId: string;
  attemptRows: Attempt[];
  /** Who reads the views: someone else's private memories are replaced by a placeholder. */
  readerId: string;
}) {
  const { rows: attemptRows, redactions } = await redactPrivateMemories({
    db,
    readerId,
    attemptRows: storedRows,
  });
  const sha256s = [
    ...new Set(
      attemptRows.flatMap((row) =>
        row.requests.flatMap((request) => request.elidedMedia.map((m) => m.sha256)),
      ),
    ),
  ];
  const replyTurnIds = [
    ...new Set(
      attemptRows.flatMap((row) => (row.kind === "reply" && row.turnId && row.response ? [row.turnId] : [])),
    ),
  ];
  const [media, reasoningRows] = await Promise.all([
    loadConversationMediaBySha256({ db, conversationId, sha256s }),
    listReasoningOfTurns({ db, turnIds: replyTurnIds }),
  ]);
  const reasoningByTurn = new Map<string, Record<string, unknown>[]>();
  for (const { turnId, payload } of reasoningRows) {
    const payloads = reasoningByTurn.get(turnId);
    if (payloads === undefined) reasoningByTurn.set(turnId, [payload]);
    else payloads.push(payload);
  }
  const modelIds = [...new Set(attemptRows.map((row) => row.modelId))];
  const modelRows = await Promise.all(modelIds.map((modelId) => getModel({ db, modelId })));
  const modelsById = new Map(
    modelRows.filter((row): row is Model => row !== null).map((row) => [row.id, row]),
  );
  return attemptRows.map((row) => {
    const carried = itemsPerRequest(row);
    const requests = row.requests.map((request, index) => ({
      url: request.url,
      status: request.status,
      body: restoreMedia(request.body, (sha256) => media.get(sha256)),
      /** The items this request carried, each with its place in the body; null on an attempt recorded without. */
      items: carried[index],
      unclaimed: request.wire?.unclaimed ?? [],
      warnings: request.wire?.warnings ?? [],
    }));
    const last = requests.at(-1) ?? null;
    return {
      id: row.id,
      conversationId: row.conversationId,
      turnId: row.turnId,
      kind: row.kind,
      replayOf: row.replayOf,
      attemptNumber: row.attemptNumber,
      stepNumber: row.stepNumber,
      modelId: row.modelId,
      provider: modelsById.get(row.modelId)?.provider ?? null,
      status: row.status,
      error: row.error,
      // The items of the request shown (the last one: in a tool loop, the payload and what the earlier steps
      // added), each with where it sits in that body.
      items: last?.items ?? (row.requests.length === 0 ? notSent(row.items, row.error) : row.items),
      unclaimed: last?.unclaimed ?? [],
      warnings: [...new Set(requests.flatMap((request) => request.warnings))],
      trace: row.trace,
      settings: row.settings,
      settingsVersion: row.settingsVersion,
      budget: budgetOf(row, last?.items ?? row.items, modelsById.get(row.modelId)),
      request: last ? { url: last.url, body: last.body } : null,
      requests,
      // With the reasoning the model returned on this attempt, as its reply stored it (null: none).
      response: row.response && {
        ...row.response,
        reasoning:
          row.kind === "reply" && row.turnId
            ? attemptReasoning(reasoningByTurn.get(row.turnId) ?? [], {
                queuedAt: row.timings.queuedAt,
                doneMs: row.timings.doneMs,
                answered: row.status !== "error",
              })
            : null,
      },
      usage: row.response?.usage ?? null,
      cost: attemptCost(row, modelsById.get(row.modelId)),
      // The model's prices changed since the attempt was recorded: what it would cost today, beside what it cost.
      costToday: attemptCostToday(row, modelsById.get(row.modelId)),
      timings: row.timings,
      privateMemoryRedaction: redactions.get(row.id) ?? null,
      createdAt: row.createdAt,
    };
  });
}

/** An attempt that made no request (its input did not fit the model): none of its items reached a provider. */
function notSent(items: unknown[], error: Attempt["error"]): WiredItem[] {
  const reason = `No request was sent: ${error?.message ?? "the attempt ended before the provider was called."}`;
  return items.map((item) => ({ ...(item as Record<string, unknown>), wirePaths: [], dropped: { reason } }));
}

/** An item as a request carried it: where it sits in that request's body (docs/features.md#wire-reconciliation). */
export type WiredItem = Record<string, unknown> & Partial<WireAddress>;

/**
 * Per request: the items it carried (the attempt's, then what the tool loop added before it) with their addresses;
 * null for a request recorded without a map.
 */
function itemsPerRequest(row: Attempt): (WiredItem[] | null)[] {
  let carried = row.items as Record<string, unknown>[];
  return row.requests.map((request: RecordedRequest) => {
    if (!request.wire) return null;
    carried = [...carried, ...(request.wire.addedItems as Record<string, unknown>[])];
    const { addresses } = request.wire;
    return carried.map((item, index) => ({ ...item, ...addresses[index] }));
  });
}

/**
 * The token budget the attempt was built against, for the inspector's gauge. Attempts do not store it, so it is
 * recomputed from the attempt's own resolved settings and the model row (as the pipeline's budget stage does);
 * null when the model has since been deleted. `totalTokens` is the estimate over the items actually sent.
 */
function budgetOf(row: Attempt, items: unknown[], model: Model | undefined) {
  if (!model) return null;
  const { usable, reserved } = usableTokenBudget(toModelDescriptor(model), row.settings);
  // An item the adapter left out of the body (`dropped`) was not sent, so it is not counted.
  const totalTokens = (items as { tokens?: number; dropped?: unknown }[]).reduce(
    (sum, item) => sum + (item.dropped ? 0 : (item.tokens ?? 0)),
    0,
  );
  return {
    usableTokens: usable,
    totalTokens,
    reservedOutputTokens: reserved,
    contextWindow: model.contextWindow,
  };
}
