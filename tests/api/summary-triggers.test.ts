// automatic summarisation before a turn, in turn mode (a 60-turn conversation)
// and in token mode (a model with a small window), with the offline summariser and with one on a fake OpenAI
// server; which turns trigger; which user turns stay verbatim; summaries chain; after a reload the SUMMARY item
// sits after the system items and before the kept turns, and the current input is sent once, last.
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { artifacts, type Message } from "@/db/schema";
import { getActiveSummary, listUnsummarisedMessages } from "@/db/summary-queries";
import { summaryMarkerText } from "@/lib/context/summary-placement";
import {
  SUMMARISER_PROMPT_PREFIX,
  SUMMARISER_SYSTEM_PROMPT,
  TOKEN_ESTIMATE_PADDING,
} from "@/lib/context/summary-plan";
import { countTextTokens } from "@/lib/context/tokens";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { insertModel } from "../fixtures/models";
import { conversationWithPersona, createConversation, insertPersona } from "../fixtures/personas";
import { type AttemptView, fetchTurns, runTurn, storedMessages, textOf } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";
import { itemText, preview } from "./preview-helpers";
import {
  compact,
  keepingSummaryMemories,
  messageMarks,
  sessionMemories,
  setOverride,
  summaryRows,
  tagShape,
} from "./summary-helpers";

const env = fakeProvidersForFile({ resetBeforeEach: false });
const ada = signedUpForFile("Ada");
keepingSummaryMemories(ada);

function history(count: number): string[] {
  return Array(count).fill("DIALOGUE_HISTORY");
}

function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

function idsOfSeqs(rows: Message[], from: number, through: number): string[] {
  return rows.filter((row) => row.seq >= from && row.seq <= through).map((row) => row.id);
}

async function unsummarisedUserTexts(conversationId: string): Promise<string[]> {
  const rows = await listUnsummarisedMessages({ db: await getDb(), conversationId, afterSeq: 0 });
  return rows.filter((row) => row.authorType === "user").map(textOf);
}

describe("turn mode: a 60-turn conversation, threshold 20, keep 5", () => {
  const userText = (turn: number) => `Turn ${turn} question. Some more words about turn ${turn}.`;
  const SCENARIOS = [
    { name: "the offline summariser", summaryModelId: null },
    { name: "a summariser on a fake OpenAI server", summaryModelId: "openai:gpt-4.1-mini" },
  ];

  test.each(SCENARIOS)(
    "with $name",
    async ({ summaryModelId }) => {
      env.providers.reset();
      const id = await conversationWithPersona(ada, { modelId: "offline:echo", name: "Guide" });
      await setOverride(ada, id, {
        summary: { mode: "turn", turnThreshold: 20, keepRecentTurns: 5, modelId: summaryModelId },
      });

      const triggered: number[] = [];
      for (let turn = 1; turn <= 60; turn++) {
        await runTurn(ada, id, userText(turn));
        const rows = await summaryRows(id);
        if (rows.length === triggered.length) continue;
        triggered.push(turn);
        // The kept user turns are exactly the last five, the current one included.
        expect(await unsummarisedUserTexts(id)).toEqual(
          [turn - 4, turn - 3, turn - 2, turn - 1, turn].map(userText),
        );
      }
      // 20 unsummarised user turns at turn 20; 15 are summarised, 5 kept, so the next 20 are reached at 35, then 50.
      expect(triggered).toEqual([20, 35, 50]);

      const rows = await summaryRows(id);
      const [s1, s2, s3] = rows;
      const modelId = summaryModelId ?? "offline:echo";
      expect(
        rows.map((row) => [
          row.trigger,
          row.coversThroughSeq,
          row.messageCount,
          row.modelId,
          row.supersededBy,
        ]),
      ).toEqual([
        ["turn", 30, 30, modelId, s2.id],
        ["turn", 60, 60, modelId, s3.id],
        ["turn", 90, 90, modelId, null],
      ]);
      const marks = await messageMarks(id);
      expect(marks).toHaveLength(120);
      expect(marks).toEqual(
        marks.map(([seq]) => [seq, seq <= 30 ? s1.id : seq <= 60 ? s2.id : seq <= 90 ? s3.id : null]),
      );
      expect(await sessionMemories(id)).toEqual([
        [s1.id, false, s1.content],
        [s2.id, false, s2.content],
        [s3.id, true, s3.content],
      ]);

      // Summaries chain: each summariser input starts with the previous summary.
      if (summaryModelId === null) {
        const line = (turn: number) => `- Ada: Turn ${turn} question.`;
        const lines = (from: number, through: number) =>
          Array.from({ length: through - from + 1 }, (_, k) => line(from + k));
        expect(s1.content).toBe(["Summary of 30 messages:", ...lines(1, 15)].join("\n"));
        expect(s2.content).toBe(["Summary of 60 messages:", ...lines(1, 30)].join("\n"));
        // 45 points would pass the 40-line cap: the oldest give way to a count.
        expect(s3.content).toBe(
          ["Summary of 90 messages:", "- (6 earlier points omitted)", ...lines(7, 45)].join("\n"),
        );
      } else {
        const summaryRequests = env.providers.requests;
        expect(summaryRequests.map((request) => request.path)).toEqual(Array(3).fill("/v1/chat/completions"));
        const prompts = summaryRequests.map((request) => {
          const body = JSON.parse(request.body) as {
            stream?: boolean;
            messages: Array<{ role: string; content: string }>;
          };
          expect(body.stream).toBeFalsy();
          expect(body.messages.map((message) => message.role)).toEqual(["system", "user"]);
          expect(body.messages[0].content).toBe(SUMMARISER_SYSTEM_PROMPT);
          return body.messages[1].content;
        });
        const userBlocks = (prompt: string) =>
          [...prompt.matchAll(/\[USER\] Ada: Turn (\d+) question\./g)].map((match) => Number(match[1]));
        const range = (from: number, through: number) =>
          Array.from({ length: through - from + 1 }, (_, k) => from + k);
        // The user turns each summary covers (the previous summary, which quotes the prompt it came from, left out).
        const withoutPrevious = prompts.map((prompt, index) =>
          index === 0 ? prompt : prompt.replace(rows[index - 1].content, ""),
        );
        expect(withoutPrevious.map(userBlocks)).toEqual([range(1, 15), range(16, 30), range(31, 45)]);
        expect(
          prompts[0].startsWith(
            `${SUMMARISER_PROMPT_PREFIX}[USER] Ada: ${userText(1)}\n\n[ASSISTANT] Guide: `,
          ),
        ).toBe(true);
        expect(
          prompts[1].startsWith(
            `${SUMMARISER_PROMPT_PREFIX}[PREVIOUS SUMMARY]: ${s1.content}\n\n[USER] Ada: ${userText(16)}`,
          ),
        ).toBe(true);
        expect(
          prompts[2].startsWith(
            `${SUMMARISER_PROMPT_PREFIX}[PREVIOUS SUMMARY]: ${s2.content}\n\n[USER] Ada: ${userText(31)}`,
          ),
        ).toBe(true);
        for (const row of rows) expect(row.content).toMatch(/^Fake openai-chat reply to: "/);
      }

      // After a reload, each payload is: system, SUMMARY, the kept turns in seq order, the current input once, last.
      const stored = await storedMessages(id);
      const { turns } = await fetchTurns(ada, id);
      const attemptOf = (turn: number): AttemptView => turns[turn - 1].attempts[0];
      const marker = (row: typeof s1) =>
        summaryMarkerText({
          content: row.content,
          createdAt: row.createdAt.toISOString(),
          messageCount: row.messageCount,
        });

      const cases: Array<{ turn: number; summary: typeof s1; historyFromSeq: number }> = [
        { turn: 20, summary: s1, historyFromSeq: 31 }, // the summarising turn itself
        { turn: 21, summary: s1, historyFromSeq: 31 }, // the next turn, loaded afresh from the database
        { turn: 34, summary: s1, historyFromSeq: 31 },
        { turn: 35, summary: s2, historyFromSeq: 61 },
        { turn: 60, summary: s3, historyFromSeq: 91 },
      ];
      for (const { turn, summary, historyFromSeq } of cases) {
        const attempt = attemptOf(turn);
        const currentSeq = 2 * turn - 1;
        const historyCount = currentSeq - historyFromSeq;
        expect(tagShape(attempt.items)).toEqual([
          "SYSTEM",
          "SUMMARY",
          ...history(historyCount),
          "CURRENT_INPUT",
        ]);
        expect(attempt.items.filter((item) => item.tag === "SUMMARY").map(itemText)).toEqual([
          marker(summary),
        ]);
        expect(
          attempt.items
            .filter((item) => item.tag === "DIALOGUE_HISTORY")
            .flatMap((item) => item.sourceMessageIds),
        ).toEqual(idsOfSeqs(stored, historyFromSeq, currentSeq - 1));
        expect(attempt.items.at(-1)?.sourceMessageIds).toEqual(idsOfSeqs(stored, currentSeq, currentSeq));
        expect(attempt.items.filter((item) => itemText(item).includes(userText(turn)))).toHaveLength(1);
        expect(occurrences(attempt.request?.body ?? "", userText(turn))).toBe(1);
      }
      // The summarising turn says so first in its trace.
      expect(attemptOf(20).trace[0]).toEqual({
        stage: "summary",
        action: "summarised",
        reason:
          "20 user turns reaches the threshold of 20: summarised 30 messages (#1–#30), kept the last 5 user turns from #31",
        counts: expect.objectContaining({ messages: 30, coversThroughSeq: 30, userTurns: 20 }),
        details: { summaryId: s1.id, trigger: "turn", modelId },
      });
      expect(attemptOf(21).trace.filter((event) => event.action === "summarised")).toEqual([]);

      // The preview builds the same way: the draft appears once, last, after the kept turns 46–60.
      const next = await preview(ada, id, "A draft question.");
      expect(tagShape(next.items)).toEqual(["SYSTEM", "SUMMARY", ...history(30), "CURRENT_INPUT"]);
      expect(itemText(next.items[next.items.findIndex((item) => item.tag === "SUMMARY")])).toBe(marker(s3));
      expect(itemText(next.items[next.items.length - 1])).toContain("A draft question.");
      expect(occurrences(next.request.body, "A draft question.")).toBe(1);
    },
    120_000,
  );
});

describe("the summariser's input", () => {
  test("starts with the prompt, truncates long messages (first 1 000 + marker + last 500) and names the tools used", async () => {
    env.providers.reset();
    const id = await conversationWithPersona(ada, { modelId: "offline:echo", name: "Guide" });
    await setOverride(ada, id, { summary: { mode: "manual", modelId: "openai:gpt-4.1-mini" } });
    const long = `${"A".repeat(1_000)}${"B".repeat(1_000)}${"C".repeat(500)}`;
    await runTurn(ada, id, long);
    await runTurn(ada, id, "What time is it?");
    await runTurn(ada, id, "Thanks.");
    const stored = await storedMessages(id);
    const db = await getDb();
    await db.insert(artifacts).values([
      {
        id: "01JTESTARTIFACT0000000000A",
        conversationId: id,
        messageId: stored[3].id,
        type: "function_call",
        payload: { callId: "c1", name: "current_time", arguments: "{}" },
      },
      {
        id: "01JTESTARTIFACT0000000000B",
        conversationId: id,
        messageId: stored[3].id,
        type: "function_call_output",
        payload: { callId: "c1", output: "12:00" },
      },
    ]);

    const response = await compact(ada, id, { keepRecentTurns: 1 });
    expect(response.status).toBe(201);
    expect(env.providers.requests).toHaveLength(1);
    const body = JSON.parse(env.providers.requests[0].body) as {
      messages: Array<{ role: string; content: string }>;
      tools?: unknown;
    };
    expect(body.tools).toBeUndefined();
    expect(body.messages[0]).toEqual({ role: "system", content: SUMMARISER_SYSTEM_PROMPT });
    expect(body.messages[1].content).toBe(
      [
        `${SUMMARISER_PROMPT_PREFIX}[USER] Ada: ${"A".repeat(1_000)}\n[... truncated ...]\n${"C".repeat(500)}`,
        `[ASSISTANT] Guide: ${textOf(stored[1])}`,
        "[USER] Ada: What time is it?",
        `[ASSISTANT] Guide: ${textOf(stored[3])}  (tools used: current_time)`,
      ].join("\n\n"),
    );
  });
});

describe("token mode: a model with a 2 000-token window", () => {
  test("summarises at the first turn whose estimate reaches 64% of the usable window", async () => {
    const model = await insertModel({ provider: "offline", contextWindow: 2_000, maxOutputTokens: 500 });
    const persona = await insertPersona({
      modelId: model.id,
      name: "Tiny",
      systemPrompt: "You are a terse test persona.",
    });
    const id = await createConversation(ada, persona);
    await setOverride(ada, id, { summary: { keepRecentTurns: 2 } });
    // usable = (2 000 − 500 reserved) × (1 − 20%) = 1 200; threshold = 64% of it.
    const threshold = Math.floor((1_200 * 64) / 100);
    expect(threshold).toBe(768);

    const userText = (turn: number) => `Turn ${turn}: ${"alpha beta gamma delta ".repeat(24).trim()}.`;
    const systemTokens = countTextTokens("You are a terse test persona.", "o200k_base");
    const db = await getDb();
    const outcomes: Array<{ turn: number; estimate: number; summarised: boolean }> = [];
    for (let turn = 1; turn <= 8; turn++) {
      // The estimate the server should make: system + unsummarised history + the previous summary + the input, × 1.15.
      const active = await getActiveSummary({ db, conversationId: id });
      const unsummarised = (await storedMessages(id)).filter((row) => row.summarizedBy === null);
      let total = systemTokens + 4 + countTextTokens(userText(turn), "o200k_base");
      for (const row of unsummarised) total += 4 + (row.tokenCounts.o200k_base ?? 0);
      if (active) total += 4 + countTextTokens(active.content, "o200k_base");
      const estimate = Math.ceil(total * TOKEN_ESTIMATE_PADDING);
      const userTurns = unsummarised.filter((row) => row.authorType === "user").length + 1;

      const before = (await summaryRows(id)).length;
      await runTurn(ada, id, userText(turn));
      const summarised = (await summaryRows(id)).length > before;
      outcomes.push({ turn, estimate, summarised });
      expect(summarised).toBe(estimate >= threshold && userTurns > 2);
      if (summarised) {
        const { turns } = await fetchTurns(ada, id);
        const event = turns[turns.length - 1].attempts[0].trace[0];
        expect(event).toMatchObject({
          stage: "summary",
          action: "summarised",
          counts: expect.objectContaining({ estimatedTokens: estimate, thresholdTokens: 768 }),
          details: expect.objectContaining({ trigger: "token" }),
        });
        expect(event.reason).toMatch(
          new RegExp(
            `^estimated ${estimate} tokens reaches the threshold of 768 \\(64% of the usable window\\): `,
          ),
        );
        expect(await unsummarisedUserTexts(id)).toEqual([userText(turn - 1), userText(turn)]);
      }
    }
    // The first summary comes once the estimate crosses the threshold, and not before.
    const first = outcomes.findIndex((outcome) => outcome.summarised);
    expect(first).toBeGreaterThanOrEqual(2);
    expect(outcomes.slice(0, first).every((outcome) => outcome.estimate < threshold)).toBe(true);
    expect(outcomes[first].estimate).toBeGreaterThanOrEqual(threshold);
    // Summaries keep coming as the window refills, each folding in the one before.
    const rows = await summaryRows(id);
    expect(rows.length).toBe(outcomes.filter((outcome) => outcome.summarised).length);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.every((row) => row.trigger === "token")).toBe(true);
    expect(rows[1].content).toContain(rows[0].content.split("\n").slice(1).join("\n"));
  }, 60_000);

  test("manual mode never summarises on its own, however full the window", async () => {
    const model = await insertModel({ provider: "offline", contextWindow: 2_000, maxOutputTokens: 500 });
    const id = await conversationWithPersona(ada, { modelId: model.id });
    await setOverride(ada, id, { summary: { mode: "manual", keepRecentTurns: 1 } });
    for (let turn = 1; turn <= 8; turn++) await runTurn(ada, id, `Turn ${turn}: ${"word ".repeat(150)}`);
    expect(await summaryRows(id)).toEqual([]);
    expect((await messageMarks(id)).every(([, mark]) => mark === null)).toBe(true);
  }, 60_000);
});
