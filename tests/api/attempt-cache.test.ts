// GET /api/attempts/:id explains its prompt cache against the previous attempt to the same model in the
// conversation: nothing changed, or the first item that did, at which byte, and the tokens and dollars sent again.
import { describe, expect, test } from "vitest";
import * as attemptRoute from "@/app/api/attempts/[id]/route";
import * as conversationRoute from "@/app/api/conversations/[id]/route";
import { prefixStability } from "@/lib/payload-diff";
import { call } from "../api-client";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { fetchTurns, runTurn } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";
import { conversationOnFakeOpenAI } from "./reply-helpers";

fakeProvidersForFile();
const ada = signedUpForFile("Ada");

interface CacheView {
  reusablePrefixBytes: number;
  firstDivergence: { byteOffset: number; itemId: string; reason: string } | null;
  missedInputTokens: number;
  missCostUsd: number | null;
  breakpoints: string[];
  previousAttemptId: string;
}

async function attemptOf(conversationId: string, turnIndex: number) {
  const { turns } = await fetchTurns(ada, conversationId);
  const id = turns[turnIndex].attempts[0].id;
  const response = await call(attemptRoute.GET, `/api/attempts/${id}`, { user: ada, params: { id } });
  expect(response.status).toBe(200);
  return (await response.json()) as {
    attempt: {
      id: string;
      request: { body: string } | null;
      items: { id: string; tag: string; tokens: number }[];
    };
    cache: CacheView | null;
  };
}

describe("an attempt's cache against the previous one", () => {
  test("first: nothing to compare; then nothing changed; then new instructions broke the prefix", async () => {
    const conversationId = await conversationOnFakeOpenAI(ada);
    await runTurn(ada, conversationId, "First question.");
    await runTurn(ada, conversationId, "Second question.");
    const patched = await call(conversationRoute.PATCH, `/api/conversations/${conversationId}`, {
      user: ada,
      method: "PATCH",
      params: { id: conversationId },
      body: { instructions: "Answer in French." },
    });
    expect(patched.status).toBe(200);
    await runTurn(ada, conversationId, "Third question.");

    const first = await attemptOf(conversationId, 0);
    expect(first.cache).toBeNull();

    const second = await attemptOf(conversationId, 1);
    expect(second.cache).toMatchObject({
      firstDivergence: null,
      missedInputTokens: 0,
      missCostUsd: 0,
      previousAttemptId: first.attempt.id,
    });
    expect(second.cache?.reusablePrefixBytes).toBe(
      prefixStability(first.attempt.request?.body ?? "", second.attempt.request?.body ?? "").stableBytes,
    );

    const third = await attemptOf(conversationId, 2);
    const instructions = third.attempt.items.find((item) => item.tag === "CONVERSATION_INSTRUCTIONS");
    if (!instructions) throw new Error("no instructions item");
    const stableBytes = prefixStability(
      second.attempt.request?.body ?? "",
      third.attempt.request?.body ?? "",
    ).stableBytes;
    expect(third.cache?.firstDivergence).toEqual({
      byteOffset: stableBytes,
      itemId: instructions.id,
      reason: "the conversation's instructions appeared",
    });
    // Everything from the instructions to the end of what the previous request had is sent again.
    const from = third.attempt.items.indexOf(instructions);
    const sentAgain = third.attempt.items.slice(from, -2).reduce((sum, item) => sum + item.tokens, 0);
    expect(third.cache?.missedInputTokens).toBe(sentAgain);
    // GPT-4.1 mini: $0.40 input against $0.10 cached, per million.
    expect(third.cache?.missCostUsd).toBeCloseTo((sentAgain * 0.3) / 1_000_000, 12);
    expect(third.cache?.previousAttemptId).toBe(second.attempt.id);
  });
});
