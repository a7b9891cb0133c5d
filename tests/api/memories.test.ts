// Memories under the user's control: a user sees their own memories (a compacted conversation's summary among
// them), corrects or deletes them and the next payload follows, turns summary memories off, and never reaches
// anyone else's. Real routes, the real database, the offline summariser.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as memoryRoute from "@/app/api/memories/[memoryId]/route";
import * as memoriesRoute from "@/app/api/memories/route";
import { call, expectError, signUp, type TestUser } from "../api-client";
import { createConversation } from "../fixtures/personas";
import { runTurn } from "../fixtures/turns";
import { itemText, preview } from "./preview-helpers";
import { compactOk, putPreferences } from "./summary-helpers";

let ada: TestUser;
let bob: TestUser;

beforeAll(async () => {
  [ada, bob] = await Promise.all([signUp("Ada"), signUp("Bob")]);
  // Ada keeps her summaries as memories; Bob has not chosen yet.
  await putPreferences(ada, { sessionSummaries: true });
});

afterAll(async () => {
  await putPreferences(ada, { sessionSummaries: true });
});

interface MemoryList {
  memories: {
    id: string;
    area: string;
    content: string;
    summaryId: string | null;
    conversationId: string | null;
  }[];
  preferences: { sessionSummaries: boolean; chosen: boolean };
}

async function list(user: TestUser): Promise<MemoryList> {
  const response = await call(memoriesRoute.GET, "/api/memories", { user });
  expect(response.status).toBe(200);
  return response.json();
}

function patch(user: TestUser, memoryId: string, body: unknown) {
  return call(memoryRoute.PATCH, `/api/memories/${memoryId}`, {
    user,
    method: "PATCH",
    params: { memoryId },
    body,
  });
}

function remove(user: TestUser, memoryId: string) {
  return call(memoryRoute.DELETE, `/api/memories/${memoryId}`, {
    user,
    method: "DELETE",
    params: { memoryId },
  });
}

async function compactedConversation(user: TestUser, texts: string[]) {
  const conversationId = await createConversation(user);
  for (const text of texts) await runTurn(user, conversationId, text);
  const summary = await compactOk(user, conversationId, { keepRecentTurns: 1 });
  return { conversationId, summary };
}

/** Everything the next payload of `conversationId` would say, as text. */
async function payloadText(user: TestUser, conversationId: string): Promise<string> {
  return (await preview(user, conversationId, "What do you remember?")).items.map(itemText).join("\n");
}

describe("a user's own memories", () => {
  test("a compacted conversation's summary is listed; edited and deleted, the next payload follows", async () => {
    const { conversationId, summary } = await compactedConversation(ada, [
      "Lisbon in May. Trams.",
      "Fado too.",
      "Done.",
    ]);
    const { memories } = await list(ada);
    expect(memories).toEqual([
      expect.objectContaining({
        area: "session_summary",
        content: summary.content,
        summaryId: summary.id,
        conversationId,
      }),
    ]);
    expect((await list(bob)).memories).toEqual([]);
    const memoryId = memories[0].id;

    // Another conversation with the same persona sees it among the core memories.
    const other = await createConversation(ada);
    expect(await payloadText(ada, other)).toContain(summary.content);

    const edited = await patch(ada, memoryId, { content: "Ada plans Lisbon in May, with fado." });
    expect(edited.status).toBe(200);
    expect((await list(ada)).memories.map((memory) => memory.content)).toEqual([
      "Ada plans Lisbon in May, with fado.",
    ]);
    const afterEdit = await payloadText(ada, other);
    expect(afterEdit).toContain("Ada plans Lisbon in May, with fado.");
    expect(afterEdit).not.toContain(summary.content);

    expect((await remove(ada, memoryId)).status).toBe(204);
    expect((await list(ada)).memories).toEqual([]);
    expect(await payloadText(ada, other)).not.toContain("Ada plans Lisbon in May");
    await expectError(await remove(ada, memoryId), 404, "not_found");
  });

  test("nobody else reads, changes or deletes them", async () => {
    const { summary } = await compactedConversation(ada, ["Secret plans. Quiet.", "More.", "End."]);
    const memory = (await list(ada)).memories.find((entry) => entry.summaryId === summary.id);
    if (!memory) throw new Error("no memory for the summary");
    await expectError(await patch(bob, memory.id, { content: "Bob was here." }), 404, "not_found");
    await expectError(await remove(bob, memory.id), 404, "not_found");
    expect((await list(bob)).memories).toEqual([]);
    expect((await list(ada)).memories.find((entry) => entry.id === memory.id)?.content).toBe(summary.content);
    await expectError(await call(memoriesRoute.GET, "/api/memories", { user: null }), 401, "unauthorized");
    expect((await remove(ada, memory.id)).status).toBe(204);
  });

  test("bad input is a 400 (or 404 for an id that is not one), never a change", async () => {
    const { summary } = await compactedConversation(ada, ["Keep me. Please.", "Two.", "Three."]);
    const memory = (await list(ada)).memories.find((entry) => entry.summaryId === summary.id);
    if (!memory) throw new Error("no memory for the summary");
    await expectError(await patch(ada, memory.id, { content: "   " }), 400, "bad_request");
    await expectError(await patch(ada, memory.id, { content: "ok", extra: true }), 400, "bad_request");
    await expectError(await patch(ada, memory.id, { content: "x".repeat(4_001) }), 400, "bad_request");
    await expectError(await patch(ada, "not-an-id", { content: "ok" }), 404, "not_found");
    await expectError(await putPreferences(ada, { sessionSummaries: "no" }), 400, "bad_request");
    await expectError(await putPreferences(ada, {}), 400, "bad_request");
    expect((await list(ada)).memories.find((entry) => entry.id === memory.id)?.content).toBe(summary.content);
    expect((await remove(ada, memory.id)).status).toBe(204);
  });
});

describe("summary memories are off until the user chooses", () => {
  test("unchosen: a summary is not kept; keeping it from its panel keeps that one; off: the next is not kept", async () => {
    const carol = await signUp("Carol");
    expect((await list(carol)).preferences).toEqual({ sessionSummaries: false, chosen: false });
    const first = await compactedConversation(carol, ["Before choosing. Yes.", "Two.", "Three."]);
    expect((await list(carol)).memories).toEqual([]);

    // "Keep" in the summary panel: on from now, and this conversation's active summary kept at once.
    const keep = await putPreferences(carol, { sessionSummaries: true, keepSummaryOf: first.conversationId });
    expect(await keep.json()).toEqual({ preferences: { sessionSummaries: true, chosen: true } });
    expect((await list(carol)).memories.map((memory) => memory.summaryId)).toEqual([first.summary.id]);
    // Asked again, it is not kept twice.
    await putPreferences(carol, { sessionSummaries: true, keepSummaryOf: first.conversationId });
    expect((await list(carol)).memories).toHaveLength(1);
  });

  test("keepSummaryOf: only with sessionSummaries true, only for one's own conversation; nothing changes when refused", async () => {
    const dave = await signUp("Dave");
    const { conversationId } = await compactedConversation(ada, ["Ada's own. Yes.", "Two.", "Three."]);
    const refusals: Array<[body: unknown, status: number, code: string, message: string | null]> = [
      // Someone else's conversation is not even found.
      [{ sessionSummaries: true, keepSummaryOf: conversationId }, 404, "not_found", "Conversation not found"],
      [
        { sessionSummaries: false, keepSummaryOf: conversationId },
        400,
        "bad_request",
        "keepSummaryOf: keepSummaryOf goes with sessionSummaries: true",
      ],
      [{ sessionSummaries: true, keepSummaryOf: "nope" }, 400, "bad_request", null],
    ];
    for (const [body, status, code, message] of refusals) {
      const said = await expectError(await putPreferences(dave, body), status, code);
      if (message) expect(said).toBe(message);
    }
    expect(await list(dave)).toEqual({
      memories: [],
      preferences: { sessionSummaries: false, chosen: false },
    });
  });

  test("off: the next summary is not kept as a memory; on again: it is", async () => {
    const off = await putPreferences(bob, { sessionSummaries: false });
    expect(off.status).toBe(200);
    expect(await off.json()).toEqual({ preferences: { sessionSummaries: false, chosen: true } });
    await compactedConversation(bob, ["Not to remember. Ever.", "Two.", "Three."]);
    expect(await list(bob)).toEqual({ memories: [], preferences: { sessionSummaries: false, chosen: true } });

    expect((await putPreferences(bob, { sessionSummaries: true })).status).toBe(200);
    const { summary } = await compactedConversation(bob, ["To remember. Yes.", "Two.", "Three."]);
    expect((await list(bob)).memories.map((memory) => memory.summaryId)).toEqual([summary.id]);
  });
});
