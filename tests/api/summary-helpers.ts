// Helpers shared by the summary-*.test.ts files: the summaries routes called in-process, the conversation's
// settings override, the preview, and what is stored (summary rows, message marks, session_summary memories).
import { asc, eq } from "drizzle-orm";
import { beforeAll } from "vitest";
import * as compactRoute from "@/app/api/conversations/[id]/compact/route";
import * as conversationRoute from "@/app/api/conversations/[id]/route";
import * as revertRoute from "@/app/api/conversations/[id]/summaries/[summaryId]/revert/route";
import * as summaryRoute from "@/app/api/conversations/[id]/summaries/[summaryId]/route";
import * as summariesRoute from "@/app/api/conversations/[id]/summaries/route";
import * as preferencesRoute from "@/app/api/memories/preferences/route";
import { getDb } from "@/db/client";
import { memories, messages, summaries } from "@/db/schema";
import type { SummaryView } from "@/lib/chat/views/summary-view";
import type { SettingsOverride } from "@/lib/domain/settings";
import { call, type TestUser } from "../api-client";
import { itemText, type PreviewItem } from "./preview-helpers";

export async function setOverride(
  user: TestUser,
  conversationId: string,
  settingsOverride: SettingsOverride,
): Promise<void> {
  const response = await call(conversationRoute.PATCH, `/api/conversations/${conversationId}`, {
    user,
    method: "PATCH",
    params: { id: conversationId },
    body: { settingsOverride },
  });
  if (response.status !== 200) throw new Error(`PATCH failed: ${response.status} ${await response.text()}`);
}

export function compact(user: TestUser | null, conversationId: string, body?: unknown): Promise<Response> {
  return call(compactRoute.POST, `/api/conversations/${conversationId}/compact`, {
    user,
    method: "POST",
    params: { id: conversationId },
    body,
  });
}

/** POST /compact that must succeed: the new summary. */
export async function compactOk(
  user: TestUser,
  conversationId: string,
  body?: unknown,
): Promise<SummaryView> {
  const response = await compact(user, conversationId, body);
  if (response.status !== 201) throw new Error(`compact failed: ${response.status} ${await response.text()}`);
  const answer = (await response.json()) as { compacted: boolean; summary: SummaryView };
  if (answer.compacted !== true) throw new Error("compact answered 201 without compacted: true");
  return answer.summary;
}

export function getSummaries(user: TestUser | null, conversationId: string): Promise<Response> {
  return call(summariesRoute.GET, `/api/conversations/${conversationId}/summaries`, {
    user,
    params: { id: conversationId },
  });
}

export async function summaryList(
  user: TestUser,
  conversationId: string,
): Promise<{ summaries: SummaryView[]; activeSummaryId: string | null }> {
  const response = await getSummaries(user, conversationId);
  if (response.status !== 200) throw new Error(`list failed: ${response.status} ${await response.text()}`);
  return response.json();
}

export function getSummary(
  user: TestUser | null,
  conversationId: string,
  summaryId: string,
): Promise<Response> {
  return call(summaryRoute.GET, `/api/conversations/${conversationId}/summaries/${summaryId}`, {
    user,
    params: { id: conversationId, summaryId },
  });
}

export function putSummary(
  user: TestUser | null,
  conversationId: string,
  summaryId: string,
  body: unknown,
): Promise<Response> {
  const path = `/api/conversations/${conversationId}/summaries/${summaryId}`;
  return call(summaryRoute.PUT, path, {
    user,
    method: "PUT",
    params: { id: conversationId, summaryId },
    body,
  });
}

export function revert(user: TestUser | null, conversationId: string, summaryId: string): Promise<Response> {
  return call(revertRoute.POST, `/api/conversations/${conversationId}/summaries/${summaryId}/revert`, {
    user,
    method: "POST",
    params: { id: conversationId, summaryId },
  });
}

/** The texts of the SUMMARY items of a payload (one, or none). */
export function summaryTexts(items: Array<Pick<PreviewItem, "tag" | "parts">>): string[] {
  return items.filter((item) => item.tag === "SUMMARY").map(itemText);
}

/** The marks messages `from` to `to` carry when `summarizedBy` (or nothing, null) covers them, as messageMarks says. */
export function marked(
  from: number,
  to: number,
  summarizedBy: string | null,
): Array<[number, string | null]> {
  return Array.from({ length: to - from + 1 }, (_, index) => [from + index, summarizedBy]);
}

/** [seq, summarizedBy] of every stored message, in seq order. */
export async function messageMarks(conversationId: string): Promise<Array<[number, string | null]>> {
  const db = await getDb();
  const rows = await db
    .select({ seq: messages.seq, summarizedBy: messages.summarizedBy })
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(asc(messages.seq));
  return rows.map((row) => [row.seq, row.summarizedBy]);
}

export async function summaryRows(conversationId: string) {
  const db = await getDb();
  return db
    .select()
    .from(summaries)
    .where(eq(summaries.conversationId, conversationId))
    .orderBy(asc(summaries.createdAt));
}

/** PUT /api/memories/preferences as `user`. */
export function putPreferences(user: TestUser, body: unknown) {
  return call(preferencesRoute.PUT, "/api/memories/preferences", { user, method: "PUT", body });
}

/** Summaries are kept as memories only once a user chooses so: `user` chooses it before the file's tests. */
export function keepingSummaryMemories(user: TestUser): void {
  beforeAll(async () => {
    const response = await putPreferences(user, { sessionSummaries: true });
    if (response.status !== 200) throw new Error(`PUT preferences failed: ${await response.text()}`);
  });
}

/** The conversation's session_summary memories, oldest first: [summaryId, active, content]. */
export async function sessionMemories(
  conversationId: string,
): Promise<Array<[string | null, boolean, string]>> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(memories)
    .where(eq(memories.conversationId, conversationId))
    .orderBy(asc(memories.createdAt));
  return rows
    .filter((row) => row.area === "session_summary")
    .map((row) => [row.summaryId, row.active, row.content]);
}

/** Everything a failed or refused request must leave unchanged. */
export async function summaryState(conversationId: string) {
  return {
    summaries: (await summaryRows(conversationId)).map((row) => ({
      id: row.id,
      content: row.content,
      supersededBy: row.supersededBy,
    })),
    marks: await messageMarks(conversationId),
    memories: await sessionMemories(conversationId),
  };
}

/** The payload's tags with the leading system items collapsed to one "SYSTEM" entry. */
export function tagShape(items: Array<{ tag: string; role: string }>): string[] {
  const shape: string[] = [];
  for (const item of items) {
    const tag = item.role === "system" ? "SYSTEM" : item.tag;
    if (tag === "SYSTEM" && shape.at(-1) === "SYSTEM") continue;
    shape.push(tag);
  }
  return shape;
}
