// Artifact replay, `reasoning.persist`: with `next_reply`, reasoning stored with a reply is replayed
// with the next reply only, then deleted, with the message's reference to it (so no later turn reports it
// missing); with `conversation` it stays. A model that reasons (Gemini, on the fake provider: a model that does
// not reason is never sent reasoning) and a thought Gemini signed (it takes no other back,
// docs/pipeline.md#replayable-reasoning), real Postgres (or PGlite), real route.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { artifacts, messages } from "@/db/schema";
import type { SettingsOverride } from "@/lib/domain/settings";
import { signUp, type TestUser } from "../api-client";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { conversationWithPersona } from "../fixtures/personas";
import { fetchTurns, runTurn, storedMessages, textOf } from "../fixtures/turns";
import { setOverride } from "./summary-helpers";

fakeProvidersForFile();
let ada: TestUser;

beforeAll(async () => {
  ada = await signUp("Ada");
});

/** A conversation whose first reply carries a stored reasoning artifact, as a reasoning model's reply would. */
async function conversationWithReasoning(persist: SettingsOverride["reasoning"]) {
  const db = await getDb();
  const conversationId = await conversationWithPersona(ada, { modelId: "google:gemini-2.5-flash" });
  await setOverride(ada, conversationId, { reasoning: persist });
  await runTurn(ada, conversationId, "Plan a day in Lisbon.");
  const [, reply] = await storedMessages(conversationId);
  const artifactId = `01JREASONING${conversationId.replace(/-/g, "").slice(0, 14).toUpperCase()}`;
  await db.insert(artifacts).values({
    id: artifactId,
    conversationId,
    messageId: reply.id,
    type: "reasoning",
    payload: { text: REASONING_TEXT, providerMetadata: { google: { thoughtSignature: "sig-retention" } } },
  });
  await db
    .update(messages)
    .set({ parts: [{ type: "artifact", artifactId }, ...reply.parts] })
    .where(eq(messages.id, reply.id));
  return { db, conversationId, replyId: reply.id, replyText: textOf(reply), artifactId };
}

async function traceOfTurn(conversationId: string, index: number) {
  const { turns } = await fetchTurns(ada, conversationId);
  return turns[index].attempts[0].trace as Array<{
    stage: string;
    action: string;
    details?: Record<string, unknown>;
  }>;
}

/** The reasoning texts the turn's first attempt was built with. */
async function reasoningOfTurn(conversationId: string, index: number): Promise<string[]> {
  const { turns } = await fetchTurns(ada, conversationId);
  return turns[index].attempts[0].items
    .filter((item) => item.tag === "REASONING")
    .flatMap((item) => item.parts.map((part) => part.text ?? ""));
}

const REASONING_TEXT = "The user wants a one-day plan; start with the castle.";

describe("reasoning.persist", () => {
  test("next_reply: replayed with the next reply, then deleted with its reference", async () => {
    const { db, conversationId, replyId, replyText, artifactId } = await conversationWithReasoning({
      persist: "next_reply",
    });

    await runTurn(ada, conversationId, "And the evening?");
    expect(await reasoningOfTurn(conversationId, 1)).toEqual([REASONING_TEXT]);
    const replayed = (await traceOfTurn(conversationId, 1)).find(
      (event) => event.action === "replayed-reasoning-once",
    );
    expect(replayed?.details).toEqual({ artifactIds: [artifactId] });
    expect(await db.select().from(artifacts).where(eq(artifacts.id, artifactId))).toEqual([]);
    const [reply] = await db.select().from(messages).where(eq(messages.id, replyId));
    expect(reply.parts).toEqual([{ type: "text", text: replyText }]);

    // The turn after: nothing replayed again, nothing reported missing.
    await runTurn(ada, conversationId, "Thanks!");
    const actions = (await traceOfTurn(conversationId, 2)).map((event) => event.action);
    expect(actions).not.toContain("replayed-reasoning-once");
    expect(actions).not.toContain("missing-artifact");
    expect(await reasoningOfTurn(conversationId, 2)).toEqual([]);
  });

  test("conversation: the reasoning stays and is replayed every turn", async () => {
    const { db, conversationId, artifactId } = await conversationWithReasoning({ persist: "conversation" });
    await runTurn(ada, conversationId, "And the evening?");
    await runTurn(ada, conversationId, "Thanks!");
    expect(await db.select().from(artifacts).where(eq(artifacts.id, artifactId))).toHaveLength(1);
    expect(await reasoningOfTurn(conversationId, 1)).toEqual([REASONING_TEXT]);
    expect(await reasoningOfTurn(conversationId, 2)).toEqual([REASONING_TEXT]);
    const actions = (await traceOfTurn(conversationId, 2)).map((event) => event.action);
    expect(actions).not.toContain("missing-artifact");
  });
});
