// manual compaction through POST /compact with the offline summariser, the summaries API
// (list, view, edit, revert), what each does to the stored messages, summaries and session_summary memories, what
// the next payload's SUMMARY item says, and who may do what. Bad input gets a clear 4xx and changes nothing.
import { and, asc, eq, lte } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import * as messagesRoute from "@/app/api/conversations/[id]/messages/route";
import { getDb } from "@/db/client";
import { messages, participants } from "@/db/schema";
import type { SummaryView } from "@/lib/chat/views/summary-view";
import { summaryMarkerText } from "@/lib/context/summary-placement";
import { countTextTokens } from "@/lib/context/tokens";
import { badRequest, call, expectError, type TestUser } from "../api-client";
import { createConversation } from "../fixtures/personas";
import { fetchTurns, runTurn } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";
import { itemText, preview } from "./preview-helpers";
import {
  compact,
  compactOk,
  getSummaries,
  getSummary,
  keepingSummaryMemories,
  marked,
  messageMarks,
  putSummary,
  revert,
  sessionMemories,
  summaryList,
  summaryState,
  summaryTexts,
  tagShape,
} from "./summary-helpers";

const ada = signedUpForFile("Ada");
keepingSummaryMemories(ada);
const bob = signedUpForFile("Bob");
const carol = signedUpForFile("Carol");
const dan = signedUpForFile("Dan", { admin: true });

async function conversationWithTurns(user: TestUser, texts: string[]): Promise<string> {
  const conversationId = await createConversation(user);
  for (const text of texts) await runTurn(user, conversationId, text);
  return conversationId;
}

/** The active summary of the first `count` messages, with its content. */
function activeSummaryOf(count: number, content: string) {
  return { content, coversThroughSeq: count, messageCount: count, state: "active" };
}

function marker(summary: SummaryView): string {
  return summaryMarkerText({
    content: summary.content,
    createdAt: summary.createdAt,
    messageCount: summary.messageCount,
  });
}

async function storedTokens(conversationId: string, throughSeq: number): Promise<number> {
  const db = await getDb();
  const rows = await db
    .select({ tokenCounts: messages.tokenCounts })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), lte(messages.seq, throughSeq)));
  return rows.reduce((sum, row) => sum + 4 + (row.tokenCounts.o200k_base ?? 0), 0);
}

describe("manual compaction, chaining, edit and revert", () => {
  test("compact → compact again → edit → revert to the previous summary → revert to none → compact afresh", async () => {
    const id = await conversationWithTurns(ada, ["One. First turn.", "Two. Second turn.", "Three.", "Four."]);

    // 1. Compact keeping 2 user turns: turns 1–2 (seq 1–4) are summarised by the offline summariser.
    const s1 = await compactOk(ada, id, { keepRecentTurns: 2 });
    expect(s1).toMatchObject({
      conversationId: id,
      content: "Summary of 4 messages:\n- Ada: One.\n- Ada: Two.",
      coversThroughSeq: 4,
      messageCount: 4,
      modelId: "offline:echo",
      trigger: "manual",
      supersededBy: null,
      state: "active",
      isActive: true,
    });
    expect(s1.tokensBefore).toBe(await storedTokens(id, 4));
    expect(s1.tokensAfter).toBe(4 + countTextTokens(marker(s1), "o200k_base"));
    expect(await messageMarks(id)).toEqual([...marked(1, 4, s1.id), ...marked(5, 8, null)]);
    expect(await sessionMemories(id)).toEqual([[s1.id, true, s1.content]]);

    // The transcript still has every message, each saying whether a summary covers it.
    const transcript = await (
      await call(messagesRoute.GET, `/api/conversations/${id}/messages`, { user: ada, params: { id } })
    ).json();
    expect(
      transcript.messages.map((m: { seq: number; summarizedBy: string | null }) => [m.seq, m.summarizedBy]),
    ).toEqual(await messageMarks(id));

    // 2. Only two user turns are left unsummarised: nothing to do, nothing changed, and that is an answer (200), not
    // an error.
    const before = await summaryState(id);
    expect(await nothingToCompact(await compact(ada, id, { keepRecentTurns: 2 }))).toBe(
      "Nothing to summarise yet: summary requested, but there are only 2 user turns and the last 2 stay verbatim.",
    );
    expect(await summaryState(id)).toEqual(before);

    // 3. Two more turns, compact again: the new summary folds in the first one (summaries chain).
    await runTurn(ada, id, "Five.");
    await runTurn(ada, id, "Six.");
    const s2 = await compactOk(ada, id, { keepRecentTurns: 2 });
    expect(s2).toMatchObject(
      activeSummaryOf(8, "Summary of 8 messages:\n- Ada: One.\n- Ada: Two.\n- Ada: Three.\n- Ada: Four."),
    );
    const listed = await summaryList(ada, id);
    expect(listed.activeSummaryId).toBe(s2.id);
    expect(listed.summaries.map((s) => [s.id, s.state, s.supersededBy])).toEqual([
      [s2.id, "active", null],
      [s1.id, "superseded", s2.id],
    ]);
    expect(await messageMarks(id)).toEqual([
      ...marked(1, 4, s1.id),
      ...marked(5, 8, s2.id),
      ...marked(9, 12, null),
    ]);
    expect(await sessionMemories(id)).toEqual([
      [s1.id, false, s1.content],
      [s2.id, true, s2.content],
    ]);
    const one = await (await getSummary(ada, id, s1.id)).json();
    expect(one.summary).toEqual(listed.summaries[1]);

    // The next payload: system, SUMMARY (s2's marker), the kept turns (seq 9–12), the input once, last.
    let next = await preview(ada, id, "Seven.");
    expect(tagShape(next.items)).toEqual([
      "SYSTEM",
      "SUMMARY",
      "DIALOGUE_HISTORY",
      "DIALOGUE_HISTORY",
      "DIALOGUE_HISTORY",
      "DIALOGUE_HISTORY",
      "CURRENT_INPUT",
    ]);
    expect(summaryTexts(next.items)).toEqual([marker(s2)]);
    expect(
      next.items.filter((item) => item.tag === "DIALOGUE_HISTORY").flatMap((item) => item.sourceMessageIds),
    ).toEqual(
      (
        await getDb().then((db) =>
          db.select().from(messages).where(eq(messages.conversationId, id)).orderBy(asc(messages.seq)),
        )
      )
        .filter((m) => m.seq >= 9)
        .map((m) => m.id),
    );

    // 4. Edit the active summary: the next payload (preview and a real turn) says the new text.
    const edited = await putSummary(ada, id, s2.id, { content: "  Edited: Ada counted from one to four.  " });
    expect(edited.status).toBe(200);
    expect((await edited.json()).summary).toMatchObject({
      id: s2.id,
      content: "Edited: Ada counted from one to four.",
      state: "active",
    });
    expect(await sessionMemories(id)).toEqual([
      [s1.id, false, s1.content],
      [s2.id, true, "Edited: Ada counted from one to four."],
    ]);
    const s2Edited = { ...s2, content: "Edited: Ada counted from one to four." };
    next = await preview(ada, id, "Seven.");
    expect(summaryTexts(next.items)).toEqual([marker(s2Edited)]);
    await runTurn(ada, id, "Seven.");
    const { turns } = await fetchTurns(ada, id);
    const sent = turns[turns.length - 1].attempts[0];
    expect(sent.items.filter((item) => item.tag === "SUMMARY").map(itemText)).toEqual([marker(s2Edited)]);
    expect(sent.request?.body).toContain("Edited: Ada counted from one to four.");
    expect(sent.request?.body).not.toContain("- Ada: Three.");
    // A superseded summary cannot be edited.
    expect(await expectError(await putSummary(ada, id, s1.id, { content: "No." }), 409, "conflict")).toMatch(
      /Only the active summary can be edited/,
    );

    // 5. Revert s2: s1 is active again, the messages s2 covered are unmarked, s1's memory is back.
    const reverted = await revert(ada, id, s2.id);
    expect(reverted.status).toBe(200);
    const revertBody = await reverted.json();
    expect(revertBody.reverted).toMatchObject({
      id: s2.id,
      state: "reverted",
      supersededBy: s1.id,
      isActive: false,
    });
    expect(revertBody.restored).toMatchObject({
      id: s1.id,
      state: "active",
      supersededBy: null,
      isActive: true,
    });
    expect(revertBody.unmarkedMessages).toBe(4);
    expect(await messageMarks(id)).toEqual([
      [1, s1.id],
      [2, s1.id],
      [3, s1.id],
      [4, s1.id],
      ...[5, 6, 7, 8, 9, 10, 11, 12, 13, 14].map((seq) => [seq, null]),
    ]);
    expect(await sessionMemories(id)).toEqual([
      [s1.id, true, s1.content],
      [s2.id, false, "Edited: Ada counted from one to four."],
    ]);
    next = await preview(ada, id, "Eight.");
    expect(summaryTexts(next.items)).toEqual([marker(s1)]);
    expect(tagShape(next.items)).toEqual([
      "SYSTEM",
      "SUMMARY",
      ...Array(10).fill("DIALOGUE_HISTORY"),
      "CURRENT_INPUT",
    ]);

    // 6. Revert s1: there is no earlier summary, so every message is unmarked and no summary is sent.
    const revertedAgain = await (await revert(ada, id, s1.id)).json();
    expect(revertedAgain.reverted).toMatchObject({ id: s1.id, state: "reverted", supersededBy: s1.id });
    expect(revertedAgain.restored).toBeNull();
    expect(revertedAgain.unmarkedMessages).toBe(4);
    expect((await messageMarks(id)).every(([, mark]) => mark === null)).toBe(true);
    expect((await sessionMemories(id)).map(([, active]) => active)).toEqual([false, false]);
    next = await preview(ada, id, "Eight.");
    expect(tagShape(next.items)).toEqual(["SYSTEM", ...Array(14).fill("DIALOGUE_HISTORY"), "CURRENT_INPUT"]);
    const afterReverts = await summaryList(ada, id);
    expect(afterReverts.activeSummaryId).toBeNull();
    expect(afterReverts.summaries.map((s) => [s.id, s.state])).toEqual([
      [s2.id, "reverted"],
      [s1.id, "reverted"],
    ]);
    expect(await expectError(await revert(ada, id, s1.id), 409, "conflict")).toMatch(
      /Only the active summary can be reverted/,
    );

    // 7. A fresh compact starts over: it does not chain from reverted summaries.
    const s3 = await compactOk(ada, id, { keepRecentTurns: 2 });
    expect(s3).toMatchObject(
      activeSummaryOf(
        10,
        "Summary of 10 messages:\n- Ada: One.\n- Ada: Two.\n- Ada: Three.\n- Ada: Four.\n- Ada: Five.",
      ),
    );
  });

  test("compact without a body uses the conversation's keepRecentTurns; an empty conversation has nothing to summarise", async () => {
    const empty = await createConversation(ada);
    const onlyZero =
      "Nothing to summarise yet: summary requested, but there are only 0 user turns and the last 15 stay verbatim.";
    expect(await nothingToCompact(await compact(ada, empty))).toBe(onlyZero);
    // An empty body is no body (a bare fetch from the Compact button), not malformed JSON.
    expect(await nothingToCompact(await compact(ada, empty, ""))).toBe(onlyZero);
    expect(await nothingToCompact(await compact(ada, empty, {}))).toBe(onlyZero);
    expect(await summaryState(empty)).toEqual({ summaries: [], marks: [], memories: [] });

    const id = await conversationWithTurns(
      ada,
      Array.from({ length: 17 }, (_, index) => `Question ${index + 1}. Details.`),
    );
    const summary = await compactOk(ada, id);
    // Default keepRecentTurns is 15: turns 1–2 (seq 1–4) are covered.
    expect(summary).toMatchObject({
      coversThroughSeq: 4,
      messageCount: 4,
      content: "Summary of 4 messages:\n- Ada: Question 1.\n- Ada: Question 2.",
    });
  });
});

describe("who may read and change summaries", () => {
  test("another user gets 404 everywhere, a room member may read but not change, an admin may do both", async () => {
    const id = await conversationWithTurns(ada, ["Alpha.", "Beta.", "Gamma."]);
    const summary = await compactOk(ada, id, { keepRecentTurns: 1 });
    const db = await getDb();
    await db.insert(participants).values({ conversationId: id, userId: carol.id, role: "member" });
    const before = await summaryState(id);

    for (const response of [
      await compact(bob, id, { keepRecentTurns: 1 }),
      await getSummaries(bob, id),
      await getSummary(bob, id, summary.id),
      await putSummary(bob, id, summary.id, { content: "Mine now." }),
      await revert(bob, id, summary.id),
    ]) {
      expect(await expectError(response, 404, "not_found")).toBe("Conversation not found");
    }
    expect(await summaryState(id)).toEqual(before);

    expect((await getSummaries(carol, id)).status).toBe(200);
    expect((await getSummary(carol, id, summary.id)).status).toBe(200);
    for (const response of [
      await compact(carol, id, { keepRecentTurns: 1 }),
      await putSummary(carol, id, summary.id, { content: "Carol's version." }),
      await revert(carol, id, summary.id),
    ]) {
      expect(await expectError(response, 403, "forbidden")).toBe(
        "Only the conversation's owner or an admin can change its summaries.",
      );
    }
    expect(await summaryState(id)).toEqual(before);

    // An admin who is not in the conversation.
    expect((await summaryList(dan, id)).activeSummaryId).toBe(summary.id);
    const edited = await putSummary(dan, id, summary.id, { content: "Moderated summary." });
    expect((await edited.json()).summary.content).toBe("Moderated summary.");
    expect((await revert(dan, id, summary.id)).status).toBe(200);
    expect((await messageMarks(id)).every(([, mark]) => mark === null)).toBe(true);
    expect((await compactOk(dan, id, { keepRecentTurns: 1 })).content).toBe(
      "Summary of 4 messages:\n- Ada: Alpha.\n- Ada: Beta.",
    );
  });

  test("no session: 401 on every summary route", async () => {
    const id = "0190aaaa-0000-7000-8000-000000000000";
    await expectError(await compact(null, id), 401, "unauthorized");
    await expectError(await getSummaries(null, id), 401, "unauthorized");
    await expectError(await getSummary(null, id, id), 401, "unauthorized");
    await expectError(await putSummary(null, id, id, { content: "x" }), 401, "unauthorized");
    await expectError(await revert(null, id, id), 401, "unauthorized");
  });
});

describe("bad input gets a clear 4xx and changes nothing", () => {
  let id: string;
  let otherId: string;
  let summary: SummaryView;
  let otherSummary: SummaryView;

  beforeAll(async () => {
    id = await conversationWithTurns(ada, ["Red.", "Green.", "Blue."]);
    summary = await compactOk(ada, id, { keepRecentTurns: 1 });
    otherId = await conversationWithTurns(ada, ["Up.", "Down."]);
    otherSummary = await compactOk(ada, otherId, { keepRecentTurns: 1 });
  });

  const compactCases: Array<{ name: string; body: unknown; status: number; code: string; message: RegExp }> =
    [
      { name: "malformed JSON", body: "{keep", status: 400, code: "invalid_json", message: /not valid JSON/ },
      badRequest(
        "keepRecentTurns 0",
        { keepRecentTurns: 0 },
        /^keepRecentTurns: keepRecentTurns must be a whole number from 1 to 20$/,
      ),
      badRequest("keepRecentTurns 21", { keepRecentTurns: 21 }, /from 1 to 20/),
      badRequest("keepRecentTurns as text", { keepRecentTurns: "2" }, /from 1 to 20/),
      badRequest("keepRecentTurns 1.5", { keepRecentTurns: 1.5 }, /from 1 to 20/),
      badRequest("an unknown key", { force: true }, /force/),
      {
        name: "a 1 MB body",
        body: JSON.stringify({ pad: "x".repeat(1024 * 1024) }),
        status: 413,
        code: "payload_too_large",
        message: /larger than/,
      },
    ];

  test.each(compactCases)("POST /compact: $name", async ({ body, status, code, message }) => {
    const before = await summaryState(id);
    expect(await expectError(await compact(ada, id, body), status, code)).toMatch(message);
    expect(await summaryState(id)).toEqual(before);
  });

  const editCases: Array<{ name: string; body: unknown; status: number; code: string; message: RegExp }> = [
    {
      name: "malformed JSON",
      body: '{"content": ',
      status: 400,
      code: "invalid_json",
      message: /not valid JSON/,
    },
    badRequest("no content", {}, /^content: content must be text$/),
    badRequest("empty content", { content: "" }, /content must not be empty/),
    badRequest("blank content", { content: "   \n " }, /content must not be empty/),
    badRequest("content of the wrong type", { content: 42 }, /content must be text/),
    badRequest("content over the limit", { content: "x".repeat(20_001) }, /at most 20000 characters/),
    badRequest("an unknown key", { content: "ok", coversThroughSeq: 99 }, /coversThroughSeq/),
  ];

  test.each(editCases)("PUT /summaries/:id: $name", async ({ body, status, code, message }) => {
    const before = await summaryState(id);
    expect(await expectError(await putSummary(ada, id, summary.id, body), status, code)).toMatch(message);
    expect(await summaryState(id)).toEqual(before);
  });

  test("script in an edited summary is stored as text", async () => {
    const conversationId = await conversationWithTurns(ada, ["Hi.", "Again."]);
    const own = await compactOk(ada, conversationId, { keepRecentTurns: 1 });
    const payload = "<script>alert(1)</script>";
    expect(
      (await (await putSummary(ada, conversationId, own.id, { content: payload })).json()).summary.content,
    ).toBe(payload);
  });

  test("ids: not a UUID, unknown, or another conversation's summary are not found", async () => {
    const before = [await summaryState(id), await summaryState(otherId)];
    const unknown = "0190aaaa-0000-7000-8000-000000000000";
    const cases: Array<[string, Response]> = [
      ["Summary not found", await getSummary(ada, id, "nope")],
      ["Summary not found", await getSummary(ada, id, unknown)],
      ["Summary not found", await getSummary(ada, id, otherSummary.id)],
      ["Summary not found", await putSummary(ada, id, otherSummary.id, { content: "Crossed." })],
      ["Summary not found", await revert(ada, id, otherSummary.id)],
      ["Summary not found", await revert(ada, id, "../../etc")],
      ["Conversation not found", await compact(ada, "nope")],
      ["Conversation not found", await getSummaries(ada, unknown)],
      ["Conversation not found", await putSummary(ada, unknown, summary.id, { content: "x" })],
    ];
    for (const [message, response] of cases)
      expect(await expectError(response, 404, "not_found")).toBe(message);
    expect([await summaryState(id), await summaryState(otherId)]).toEqual(before);
  });
});

/** A compact with nothing to do answers 200 `{ compacted: false, reason }`: the reason, or a failed expectation. */
async function nothingToCompact(response: Response): Promise<string> {
  expect(response.status).toBe(200);
  const body = (await response.json()) as { compacted: boolean; reason: string };
  expect(Object.keys(body).sort()).toEqual(["compacted", "reason"]);
  expect(body.compacted).toBe(false);
  return body.reason;
}
