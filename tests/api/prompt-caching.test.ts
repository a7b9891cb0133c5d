// Prompt caching on the wire: a Claude conversation's turns go to the fake Anthropic with cache_control
// breakpoints at the stable prefix (after the system block, after the history), the second turn reports cache
// reads from the fake's cache, and each attempt records the reads, the writes, the breakpoints and a cost with
// writes at Anthropic's write rate; cache.breakpoints off sends none. OpenAI gets a prompt_cache_key per
// conversation on chat completions and the Responses API.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { personas } from "@/db/schema";
import { signUp, type TestUser } from "../api-client";
import { ANTHROPIC_TEST_KEY, fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { createConversation, insertPersona } from "../fixtures/personas";
import { fetchTurns, runTurn } from "../fixtures/turns";

// Every test starts with no scripts, no recorded requests and an empty prompt cache.
const env = fakeProvidersForFile();
let ada: TestUser;

beforeAll(async () => {
  ada = await signUp("Ada");
});

const EPHEMERAL = { type: "ephemeral" };

interface AnthropicBody {
  model: string;
  system: { type: string; text: string; cache_control?: unknown }[];
  messages: { role: string; content: { type: string; text?: string; cache_control?: unknown }[] }[];
}

function anthropicBodies(): AnthropicBody[] {
  return env.providers.requests
    .filter((request) => request.protocol === "anthropic")
    .map((request) => JSON.parse(request.body) as AnthropicBody);
}

/** [message index, block index] of every block carrying cache_control. */
function breakpointsIn(body: AnthropicBody): [number, number][] {
  return body.messages.flatMap((message, at) =>
    message.content.flatMap((block, index): [number, number][] =>
      block.cache_control === undefined ? [] : [[at, index]],
    ),
  );
}

describe("Anthropic prompt caching", () => {
  test("breakpoints at the stable prefix; the second turn reads what the first wrote; recorded per attempt", async () => {
    const persona = await insertPersona({
      modelId: "anthropic:claude-sonnet-4-5",
      systemPrompt: "You are Claude in a test. Keep every answer short. ".repeat(30),
    });
    const conversationId = await createConversation(ada, persona);

    await runTurn(ada, conversationId, "First question?");
    await runTurn(ada, conversationId, "Second question?");

    const [first, second] = anthropicBodies();
    expect(first.model).toBe("claude-sonnet-4-5");
    // Turn 1: the system block is the only stable prefix.
    expect(first.system.at(-1)?.cache_control).toEqual(EPHEMERAL);
    expect(breakpointsIn(first)).toEqual([]);
    // Turn 2: the system block again, and the end of the history (the first reply) before the new input.
    expect(second.system.at(-1)?.cache_control).toEqual(EPHEMERAL);
    expect(second.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(breakpointsIn(second)).toEqual([[1, second.messages[1].content.length - 1]]);
    // The prefix is byte-identical up to the first breakpoint: the cache can serve it.
    expect(second.system).toEqual(first.system);
    // The key never reaches what is recorded.
    expect(JSON.stringify(env.providers.requests)).not.toContain(ANTHROPIC_TEST_KEY);

    const { raw, turns } = await fetchTurns(ada, conversationId);
    expect(raw).not.toContain(ANTHROPIC_TEST_KEY);
    const [turn1, turn2] = turns.map((turn) => turn.attempts[0]);
    expect(turn1.usage?.cachedInputTokens).toBe(0);
    expect(turn1.usage?.cacheWriteTokens).toBeGreaterThan(100);
    // Turn 2 read exactly what turn 1 wrote (the system prefix), and wrote the history after it.
    expect(turn2.usage?.cachedInputTokens).toBe(turn1.usage?.cacheWriteTokens);
    expect(turn2.usage?.cacheWriteTokens).toBeGreaterThan(0);
    expect(turn2.items.filter((item) => item.cacheBreakpoint).map((item) => item.cacheBreakpoint)).toEqual([
      "system",
      "history",
    ]);
    expect(turn2.trace).toContainEqual(
      expect.objectContaining({
        stage: "cache",
        action: "placed-breakpoints",
        counts: { breakpoints: 2, limit: 4 },
      }),
    );
    // The recorded body is the one the fake received.
    expect(turn2.request?.body).toBe(env.providers.requests.at(-1)?.body);
    // Writes are priced at Sonnet's $3.75 per million.
    const { cost } = turn2 as typeof turn2 & { cost: { cacheWriteUsd: number } | null };
    expect(cost?.cacheWriteUsd).toBeCloseTo(((turn2.usage?.cacheWriteTokens ?? 0) * 3.75) / 1e6, 12);
  });

  test("cache.breakpoints off: no cache_control at all", async () => {
    const persona = await insertPersona({ modelId: "anthropic:claude-haiku-4-5" });
    const db = await getDb();
    await db
      .update(personas)
      .set({ settingsOverride: { cache: { breakpoints: "off" } } })
      .where(eq(personas.id, persona.id));
    const conversationId = await createConversation(ada, persona);
    await runTurn(ada, conversationId, "One?");
    await runTurn(ada, conversationId, "Two?");
    for (const body of anthropicBodies()) {
      expect(JSON.stringify(body)).not.toContain("cache_control");
    }
    const { turns } = await fetchTurns(ada, conversationId);
    expect(turns[1].attempts[0].usage?.cachedInputTokens).toBe(0);
    expect(turns[1].attempts[0].trace).toContainEqual(expect.objectContaining({ action: "breakpoints-off" }));
  });
});

/** A conversation on `modelId` whose next reply is "Cached." and reports `usage`. */
async function conversationWithCachedReply(
  modelId: string,
  usage: { inputTokens: number; cachedInputTokens: number },
): Promise<string> {
  const conversationId = await createConversation(ada, await insertPersona({ modelId }));
  env.providers.script({ kind: "text", text: "Cached.", usage });
  return conversationId;
}

describe("OpenAI prompt cache key", () => {
  test.each([
    ["openai:gpt-4.1-mini", "/chat/completions"],
    ["openai:gpt-5-mini", "/responses"],
  ])("%s sends the conversation as prompt_cache_key", async (modelId, path) => {
    const conversationId = await conversationWithCachedReply(modelId, {
      inputTokens: 2_000,
      cachedInputTokens: 1_536,
    });
    await runTurn(ada, conversationId, "Hello?");
    const [request] = env.providers.requests;
    expect(request.path).toContain(path);
    expect(JSON.parse(request.body).prompt_cache_key).toBe(`conversation:${conversationId}`);
    const { turns } = await fetchTurns(ada, conversationId);
    expect(turns[0].attempts[0].usage?.cachedInputTokens).toBe(1_536);
  });

  test("Gemini's reported cached tokens are recorded as cache reads", async () => {
    const conversationId = await conversationWithCachedReply("google:gemini-2.5-flash", {
      inputTokens: 3_000,
      cachedInputTokens: 2_048,
    });
    await runTurn(ada, conversationId, "Hello?");
    const { turns } = await fetchTurns(ada, conversationId);
    expect(turns[0].attempts[0].usage?.cachedInputTokens).toBe(2_048);
    expect(JSON.parse(env.providers.requests[0].body).prompt_cache_key).toBeUndefined();
  });
});
