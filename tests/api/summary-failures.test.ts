// an empty or failed summary changes nothing (no summary row, no message marked, no memory) and is a
// trace warning on the turn, which still gets its reply; the same through POST /compact is a 422. And the in-loop
// fallback: when the budget would have to drop whole turns, the turn summarises instead (unless the mode is manual).
import { describe, expect, test } from "vitest";
import type { ScriptedReply } from "@/e2e/fake-providers/server";
import { expectError } from "../api-client";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { insertModel } from "../fixtures/models";
import { conversationWithPersona } from "../fixtures/personas";
import { fetchTurns, runTurn, storedMessages, textOf } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";
import { compact, messageMarks, setOverride, summaryRows, summaryState } from "./summary-helpers";

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");

describe("a summary that fails or comes back empty changes nothing", () => {
  // A 500 is retried like any model call (three tries in all): each try gets it. An empty answer is not retried.
  const CASES: Array<{ name: string; reply: ScriptedReply; tries: number; reason: RegExp }> = [
    {
      name: "an empty summary",
      reply: { kind: "text", text: "" },
      tries: 1,
      reason: /^the summary model openai:gpt-4\.1-mini returned an empty summary; nothing was summarised$/,
    },
    {
      name: "a whitespace-only summary",
      reply: { kind: "text", text: "  \n\n " },
      tries: 1,
      reason: /^the summary model openai:gpt-4\.1-mini returned an empty summary; nothing was summarised$/,
    },
    {
      name: "a 500 from the provider",
      reply: { kind: "error", status: 500, message: "upstream exploded" },
      tries: 3,
      reason:
        /^the summary model openai:gpt-4\.1-mini failed: .*upstream exploded.*; nothing was summarised$/,
    },
  ];

  test.each(CASES)("$name", async ({ reply, tries, reason }) => {
    const id = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini", name: "Wire" });
    await setOverride(ada, id, { summary: { mode: "turn", turnThreshold: 5, keepRecentTurns: 2 } });
    for (let turn = 1; turn <= 4; turn++) await runTurn(ada, id, `Question ${turn}.`);
    expect(env.providers.requests).toHaveLength(4);
    const before = await summaryState(id);
    expect(before).toEqual({ summaries: [], marks: before.marks.map(([seq]) => [seq, null]), memories: [] });

    // Turn 5 reaches the threshold: the summary call gets the scripted failure, the reply still comes.
    env.providers.script(...Array(tries).fill(reply));
    const { text } = await runTurn(ada, id, "Question 5.");
    expect(text).toBe('Fake openai-chat reply to: "Question 5."');
    const calls = env.providers.requests.slice(4);
    expect(calls).toHaveLength(tries + 1);
    const [summaryCall, chatCall] = [calls[0], calls[tries]];
    expect(JSON.parse(summaryCall.body).stream).toBeFalsy();
    expect(JSON.parse(chatCall.body).stream).toBe(true);
    expect(await summaryRows(id)).toEqual([]);
    expect((await messageMarks(id)).every(([, mark]) => mark === null)).toBe(true);
    expect((await summaryState(id)).memories).toEqual([]);
    const { turns } = await fetchTurns(ada, id);
    const turn5 = turns[turns.length - 1];
    expect(turn5.status).toBe("ok");
    const warning = turn5.attempts[0].trace[0];
    expect(warning).toMatchObject({ stage: "summary", action: "summary-failed", level: "warning" });
    expect(warning.reason).toMatch(reason);
    // Nothing summarised, so the payload is the whole history: no SUMMARY item.
    expect(turn5.attempts[0].items.some((item) => item.tag === "SUMMARY")).toBe(false);

    // The same failure through the Compact button: 422, still nothing changed.
    env.providers.script(...Array(tries).fill(reply));
    const stateBefore = await summaryState(id);
    const message = await expectError(await compact(ada, id), 422, "model_unavailable");
    expect(message).toMatch(
      /^The summary could not be made: the summary model openai:gpt-4\.1-mini (returned an empty summary|failed: .*)\. Nothing was changed\.$/,
    );
    expect(await summaryState(id)).toEqual(stateBefore);

    // The next turn tries again and, with a working provider, summarises turns 1–4 (keeping 5 and 6).
    await runTurn(ada, id, "Question 6.");
    const [summary] = await summaryRows(id);
    expect(summary).toMatchObject({
      trigger: "turn",
      coversThroughSeq: 8,
      messageCount: 8,
      modelId: "openai:gpt-4.1-mini",
    });
    expect(summary.content).toMatch(/^Fake openai-chat reply to: "/);
    const users = (await storedMessages(id)).filter(
      (message) => message.authorType === "user" && message.summarizedBy === null,
    );
    expect(users.map(textOf)).toEqual(["Question 5.", "Question 6."]);
  });

  test("a summary model that does not exist is a warning, not a failed turn", async () => {
    const id = await conversationWithPersona(ada, { modelId: "offline:echo" });
    await setOverride(ada, id, {
      summary: { mode: "turn", turnThreshold: 5, keepRecentTurns: 2, modelId: "openai:no-such-model" },
    });
    for (let turn = 1; turn <= 5; turn++) await runTurn(ada, id, `Question ${turn}.`);
    const { turns } = await fetchTurns(ada, id);
    expect(turns[turns.length - 1].status).toBe("ok");
    expect(turns[turns.length - 1].attempts[0].trace[0]).toEqual({
      stage: "summary",
      action: "summary-failed",
      level: "warning",
      reason:
        "the summary model openai:no-such-model is unknown, disabled or its provider is not configured; nothing was summarised",
    });
    expect(await summaryRows(id)).toEqual([]);
  });
});

describe("in-loop fallback: summarise rather than drop turns", () => {
  const userText = (turn: number) => `Turn ${turn}: ${"lorem ipsum dolor sit amet ".repeat(30).trim()}.`;

  test("turn mode far from its threshold summarises when the budget would drop turns; manual mode drops them", async () => {
    const model = await insertModel({ provider: "offline", contextWindow: 2_000, maxOutputTokens: 500 });

    const run = async (mode: "turn" | "manual") => {
      // A persona per run: a session_summary memory of one conversation is a core memory in the user's next one.
      const id = await conversationWithPersona(ada, { modelId: model.id, name: "Tiny" });
      await setOverride(ada, id, { summary: { mode, turnThreshold: 1_000, keepRecentTurns: 2 } });
      for (let turn = 1; turn <= 10; turn++) {
        await runTurn(ada, id, userText(turn));
        const { turns } = await fetchTurns(ada, id);
        const trace = turns[turns.length - 1].attempts[0].trace;
        const summarised = trace.find((event) => event.action === "summarised");
        const dropped = trace.find((event) => event.action === "dropped-oldest-turns");
        if (summarised || dropped)
          return { id, turn, summarised, dropped, attempt: turns[turns.length - 1].attempts[0] };
      }
      throw new Error("the budget never overflowed");
    };

    const summarising = await run("turn");
    expect(summarising.turn).toBeGreaterThanOrEqual(4);
    expect(summarising.dropped).toBeUndefined();
    expect(summarising.summarised?.reason).toMatch(
      new RegExp(
        `^the context did not fit the model's budget: summarised ${2 * (summarising.turn - 2)} messages \\(#1–#${2 * (summarising.turn - 2)}\\), kept the last 2 user turns from #${2 * summarising.turn - 3}$`,
      ),
    );
    const [summary] = await summaryRows(summarising.id);
    expect(summary).toMatchObject({ trigger: "token", coversThroughSeq: 2 * (summarising.turn - 2) });
    expect(
      summarising.attempt.items.map((item) => item.tag).filter((tag) => tag !== "SYSTEM_PROMPT"),
    ).toEqual(["SUMMARY", "DIALOGUE_HISTORY", "DIALOGUE_HISTORY", "CURRENT_INPUT"]);

    // Manual mode with the same messages: no summary; the budget drops the oldest turns at the same turn.
    const dropping = await run("manual");
    expect(dropping.turn).toBe(summarising.turn);
    expect(dropping.summarised).toBeUndefined();
    expect(dropping.dropped).toMatchObject({ stage: "budget", level: "warning" });
    expect(await summaryRows(dropping.id)).toEqual([]);
  }, 60_000);
});
