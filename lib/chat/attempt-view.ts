// The API shape of an attempt (SPEC §6.5): what was sent, item by item, why, and the exact body as a string with
// its media put back, so it can be replayed elsewhere byte for byte.

import type { Database } from "@/db/client";
import { loadConversationMediaBySha256 } from "@/db/queries";
import type { Attempt } from "@/db/schema";
import { restoreMedia } from "@/lib/providers/media-elision";

export async function toAttemptViews({
  db,
  conversationId,
  attemptRows,
}: {
  db: Database;
  conversationId: string;
  attemptRows: Attempt[];
}) {
  const sha256s = [...new Set(attemptRows.flatMap((row) => row.requests.flatMap((request) => request.elidedMedia.map((m) => m.sha256))))];
  const media = await loadConversationMediaBySha256({ db, conversationId, sha256s });
  return attemptRows.map((row) => {
    const requests = row.requests.map((request) => ({
      url: request.url,
      status: request.status,
      body: restoreMedia(request.body, (sha256) => media.get(sha256)),
    }));
    const last = requests.at(-1) ?? null;
    return {
      id: row.id,
      turnId: row.turnId,
      attemptNumber: row.attemptNumber,
      stepNumber: row.stepNumber,
      modelId: row.modelId,
      status: row.status,
      error: row.error,
      items: row.items,
      trace: row.trace,
      settings: row.settings,
      settingsVersion: row.settingsVersion,
      request: last ? { url: last.url, body: last.body } : null,
      requests,
      response: row.response,
      usage: row.response?.usage ?? null,
      timings: row.timings,
      createdAt: row.createdAt,
    };
  });
}
