// Cost: each attempt is priced from the usage the provider reported at its model's registry prices of the moment
// it was recorded (kept with it), with cached input tokens at the cached rate; a turn costs the sum of its
// attempts, a conversation the sum of its turns. A model without prices gives "unknown" (null), never $0.
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import * as attemptRoute from "@/app/api/attempts/[id]/route";
import * as turnsRoute from "@/app/api/conversations/[id]/turns/route";
import { getDb } from "@/db/client";
import { models, personas } from "@/db/schema";
import { call } from "../api-client";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { insertModel } from "../fixtures/models";
import { conversationWithPersona, createConversation, insertPersona } from "../fixtures/personas";
import { METERED_REPLIES, runTurn } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";

const env = fakeProvidersForFile({ resetBeforeEach: false });
const ada = signedUpForFile("Ada");

interface CostView {
  inputUsd: number;
  cachedInputUsd: number;
  outputUsd: number;
  totalUsd: number;
}
interface TurnIndex {
  turns: { cost: CostView | null; attempts: { id: string; status: string; cost: CostView | null }[] }[];
  cost: CostView | null;
}

async function turnIndex(conversationId: string): Promise<TurnIndex> {
  const response = await call(turnsRoute.GET, `/api/conversations/${conversationId}/turns?fields=summary`, {
    user: ada,
    params: { id: conversationId },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as TurnIndex;
}

describe("costs", () => {
  test("per attempt, per turn and per conversation, cached input at the cached rate", async () => {
    const conversationId = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
    env.providers.script(...METERED_REPLIES);
    await runTurn(ada, conversationId, "First.");
    await runTurn(ada, conversationId, "Second.");

    const index = await turnIndex(conversationId);
    const first = index.turns[0].attempts[0].cost as CostView;
    expect(first.inputUsd).toBeCloseTo(0.00008, 12); // 200 uncached × $0.40 / 1M
    expect(first.cachedInputUsd).toBeCloseTo(0.00008, 12); // 800 × $0.10 / 1M
    expect(first.outputUsd).toBeCloseTo(0.00016, 12); // 100 × $1.60 / 1M
    expect(first.totalUsd).toBeCloseTo(0.00032, 12);

    // The 429 reported no usage: its cost is unknown, and the turn's is the answered attempt's.
    const [rateLimited, answered] = index.turns[1].attempts;
    expect(rateLimited.status).toBe("error");
    expect(rateLimited.cost).toBeNull();
    expect(answered.cost?.totalUsd).toBeCloseTo(0.0008 + 0.00008, 12);
    expect(index.turns[1].cost?.totalUsd).toBeCloseTo(0.00088, 12);
    expect(index.cost?.totalUsd).toBeCloseTo(0.00032 + 0.00088, 12);

    const response = await call(attemptRoute.GET, `/api/attempts/${answered.id}`, {
      user: ada,
      params: { id: answered.id },
    });
    const { attempt } = (await response.json()) as { attempt: { cost: CostView } };
    expect(attempt.cost.totalUsd).toBeCloseTo(0.00088, 12);
  });

  test("a model without prices: the cost is unknown, not zero", async () => {
    const db = await getDb();
    await db.update(models).set({ prices: null }).where(eq(models.id, "openai:gpt-4o"));
    const conversationId = await conversationWithPersona(ada, { modelId: "openai:gpt-4o" });
    env.providers.script({ kind: "text", text: "Priceless.", usage: { inputTokens: 10, outputTokens: 2 } });
    await runTurn(ada, conversationId, "How much?");
    const index = await turnIndex(conversationId);
    expect(index.turns[0].attempts[0].cost).toBeNull();
    expect(index.turns[0].cost).toBeNull();
    expect(index.cost).toBeNull();
  });

  test("an attempt keeps the prices it was costed with; its view notes the cost at today's prices", async () => {
    const db = await getDb();
    const model = await insertModel();
    const setPrices = (inputPerMillion: number, outputPerMillion: number) =>
      db
        .update(models)
        .set({ prices: { inputPerMillion, cachedInputPerMillion: inputPerMillion / 4, outputPerMillion } })
        .where(eq(models.id, model.id));
    await setPrices(1, 4);
    const persona = await insertPersona({ modelId: model.id, systemPrompt: "You are a guide." });
    const conversationId = await createConversation(ada, persona);
    const usage = { inputTokens: 1_000_000, outputTokens: 250_000 };
    env.providers.script(
      { kind: "text", text: "Priced once.", usage },
      { kind: "text", text: "Priced twice.", usage },
    );
    await runTurn(ada, conversationId, "How much?");
    const attemptView = async (attemptId: string) => {
      const response = await call(attemptRoute.GET, `/api/attempts/${attemptId}`, {
        user: ada,
        params: { id: attemptId },
      });
      return (await response.json()) as {
        attempt: { cost: CostView | null; costToday: CostView | null };
        cache: { missedInputTokens: number; missCostUsd: number | null } | null;
      };
    };
    const [first] = (await turnIndex(conversationId)).turns[0].attempts;
    // $1 + $1 at the prices of the day; nothing else to say.
    expect((await attemptView(first.id)).attempt).toMatchObject({ cost: { totalUsd: 2 }, costToday: null });

    // The prices double: the first attempt's cost stays, today's is beside it; the next attempt costs the new.
    await setPrices(2, 8);
    // The persona's prompt changes too: the next request's cache misses from its first item on.
    await db
      .update(personas)
      .set({ systemPrompt: "You are a strict guide." })
      .where(eq(personas.id, persona.id));
    expect((await attemptView(first.id)).attempt).toMatchObject({
      cost: { totalUsd: 2 },
      costToday: { totalUsd: 4 },
    });
    await runTurn(ada, conversationId, "And now?");
    const index = await turnIndex(conversationId);
    expect(index.turns.map((turn) => turn.cost?.totalUsd)).toEqual([2, 4]);
    expect(index.cost?.totalUsd).toBe(6);
    const second = await attemptView(index.turns[1].attempts[0].id);
    expect(second.attempt).toMatchObject({ cost: { totalUsd: 4 }, costToday: null });

    // The prices change again: the cache explanation prices the tokens sent again as the attempt was priced.
    await setPrices(10, 40);
    const again = await attemptView(index.turns[1].attempts[0].id);
    expect(again.attempt.costToday?.totalUsd).toBe(20);
    const missed = again.cache?.missedInputTokens ?? Number.NaN;
    expect(missed).toBeGreaterThan(0);
    // At the recorded $2 a million input, $0.50 cached: $1.50 a million tokens sent again.
    expect(again.cache?.missCostUsd).toBeCloseTo((missed * 1.5) / 1_000_000, 12);
  });
});
