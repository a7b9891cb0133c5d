// A stopped attempt is billed by the provider though it reported no usage: its cost is estimated
// (lib/chat/attempts/attempt-cost.ts) from the item token counts it sent and the text it streamed, at the model's prices, and
// marked `estimated` both on GET /api/attempts/:id and in the full turns listing.
import { describe, expect, test } from "vitest";
import * as attemptRoute from "@/app/api/attempts/[id]/route";
import * as attemptsRoute from "@/app/api/attempts/route";
import * as turnsRoute from "@/app/api/conversations/[id]/turns/route";
import { getDb } from "@/db/client";
import { getModel } from "@/db/model-queries";
import { countTextTokens } from "@/lib/context/tokens";
import { call } from "../api-client";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { createConversation, insertPersona } from "../fixtures/personas";
import { fetchTurns, postChat, UIStreamReader } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";
import { stop } from "./reply-helpers";

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");

interface EstimatedCostView {
  inputUsd: number;
  outputUsd: number;
  totalUsd: number;
  estimated: boolean;
}
interface AttemptCostView {
  id: string;
  status: string;
  usage: unknown;
  items: { tokens?: number }[];
  response: { text: string } | null;
  cost: EstimatedCostView | null;
}

describe("estimated costs", () => {
  test("a stopped attempt's cost is estimated from what it sent and received", async () => {
    const persona = await insertPersona({ modelId: "openai:gpt-4.1-mini" });
    const conversationId = await createConversation(ada, persona);
    const words = Array.from({ length: 60 }, (_, index) => `word${index} `).join("");
    env.providers.script({
      kind: "text",
      text: words,
      chunks: 60,
      chunkDelayMs: 45,
      usage: { inputTokens: 999, outputTokens: 999 },
    });
    const response = await postChat(ada, conversationId, "Count to sixty.");
    const reader = new UIStreamReader(response);
    expect(await reader.readDeltas(10)).toBe(true);
    const stopped = await stop(ada, conversationId, { shownChars: reader.text.length });
    expect(stopped.status).toBe(200);
    await reader.drain();

    const { turns } = await fetchTurns(ada, conversationId);
    const [listed] = turns[0].attempts as unknown as AttemptCostView[];
    expect(listed.status).toBe("stopped");
    const detail = await call(attemptRoute.GET, `/api/attempts/${listed.id}`, {
      user: ada,
      params: { id: listed.id },
    });
    expect(detail.status).toBe(200);
    const { attempt } = (await detail.json()) as { attempt: AttemptCostView };

    // The stream was cut before its final chunk: no usage reached the app, so the 999s were never seen.
    expect(attempt.usage).toBeNull();
    expect(attempt.response?.text.length).toBeGreaterThan(0);
    const model = await getModel({ db: await getDb(), modelId: "openai:gpt-4.1-mini" });
    const prices = model?.prices;
    if (!model || !prices) throw new Error("GPT-4.1 mini has catalogue prices");
    const inputTokens = attempt.items.reduce((sum, item) => sum + (item.tokens ?? 0), 0);
    const outputTokens = countTextTokens(attempt.response?.text ?? "", model.tokenizer);
    expect(inputTokens).toBeGreaterThan(0);
    expect(outputTokens).toBeGreaterThan(0);

    expect(attempt.cost).not.toBeNull();
    expect(attempt.cost?.estimated).toBe(true);
    expect(attempt.cost?.inputUsd).toBeCloseTo((inputTokens * prices.inputPerMillion) / 1_000_000, 12);
    expect(attempt.cost?.outputUsd).toBeCloseTo((outputTokens * prices.outputPerMillion) / 1_000_000, 12);
    expect(listed.cost).toEqual(attempt.cost);
    expect((turns[0] as unknown as { cost: EstimatedCostView }).cost).toMatchObject({ estimated: true });

    // The light views price it the same way: the compact turn list and the find-attempts page.
    const summary = await call(turnsRoute.GET, `/api/conversations/${conversationId}/turns?fields=summary`, {
      user: ada,
      params: { id: conversationId },
    });
    const compact = (await summary.json()) as {
      turns: { cost: EstimatedCostView | null; attempts: { id: string; cost: EstimatedCostView | null }[] }[];
    };
    expect(compact.turns[0].attempts[0]).toMatchObject({ id: attempt.id, cost: attempt.cost });
    expect(compact.turns[0].attempts[0]).not.toHaveProperty("streamedText");
    expect(compact.turns[0].cost).toEqual(attempt.cost);
    const found = await call(attemptsRoute.GET, "/api/attempts?status=stopped", { user: ada });
    const { attempts: rows } = (await found.json()) as {
      attempts: { id: string; cost: EstimatedCostView }[];
    };
    expect(rows.find((row) => row.id === attempt.id)?.cost).toEqual(attempt.cost);
  });
});
