// LangChain's `ChatOpenAI` against the gateway (/v1/chat/completions) and the fake providers, pointed at Glassbox as
// the README says: `invoke` and `stream` get the persona's reply, the calls of one growing history are one
// conversation, and each attempt recorded the very bytes the provider received. LangChain does not hand back the
// response headers, so each call's attempt is found from the key's conversation instead of x-glassbox-attempt-id.
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import * as attemptRoute from "@/app/api/attempts/[id]/route";
import * as turnsRoute from "@/app/api/conversations/[id]/turns/route";
import { getDb } from "@/db/client";
import { listMessages } from "@/db/message-queries";
import { listPersonasWithSlugs } from "@/db/persona-queries";
import { apiKeyConversations, type Persona } from "@/db/schema";
import { defaultReplyText } from "@/e2e/fake-providers/reply-plan";
import { call } from "../api-client";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { insertPersona } from "../fixtures/personas";
import { signedUpForFile } from "../fixtures/users";
import { createKey, GATEWAY_BASE_URL, gatewayFetch } from "./gateway-fixtures";

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");

async function persona(): Promise<Persona> {
  const row = await insertPersona({
    modelId: "openai:gpt-4.1-mini",
    name: `LangChain ${crypto.randomUUID()}`,
    systemPrompt: "You are a terse test persona.",
  });
  const withSlugs = await listPersonasWithSlugs({ db: await getDb() });
  return withSlugs.find((candidate) => candidate.id === row.id) as Persona;
}

/** A new key of Ada's and `ChatOpenAI` on it, as the README configures it (its fetch reaches the /v1 routes). */
async function chatModel(tutor: Persona) {
  const { key, secret } = await createKey(ada, { name: "langchain" });
  const model = new ChatOpenAI({
    model: tutor.slug as string,
    apiKey: secret,
    maxRetries: 0,
    configuration: { baseURL: GATEWAY_BASE_URL, fetch: gatewayFetch },
  });
  return { keyId: key.id, model };
}

/** The conversations the key's calls made or continued. */
async function keyConversations(keyId: string): Promise<string[]> {
  const rows = await (await getDb())
    .select({ conversationId: apiKeyConversations.conversationId })
    .from(apiKeyConversations)
    .where(eq(apiKeyConversations.apiKeyId, keyId));
  return rows.map((row) => row.conversationId);
}

/** The request body the conversation's latest reply attempt recorded (GET /api/attempts/:id). */
async function lastRecordedBody(conversationId: string): Promise<string | undefined> {
  const listed = await call(turnsRoute.GET, `/api/conversations/${conversationId}/turns?fields=summary`, {
    user: ada,
    params: { id: conversationId },
  });
  expect(listed.status).toBe(200);
  const { turns } = (await listed.json()) as { turns: { attempts: { id: string }[] }[] };
  const attemptId = turns.at(-1)?.attempts.at(-1)?.id as string;
  const response = await call(attemptRoute.GET, `/api/attempts/${attemptId}`, {
    user: ada,
    params: { id: attemptId },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { attempt: { request: { body: string } | null } }).attempt.request?.body;
}

function textOf(message: BaseMessage): string {
  return typeof message.content === "string" ? message.content : JSON.stringify(message.content);
}

describe("LangChain ChatOpenAI through the gateway", () => {
  test("invoke, then stream with the growing history: one conversation, the recorded bytes are the sent ones", async () => {
    const tutor = await persona();
    const { keyId, model } = await chatModel(tutor);
    const history: BaseMessage[] = [new SystemMessage("Be brief."), new HumanMessage("Hello LangChain")];

    const first = await model.invoke(history);
    expect(textOf(first)).toBe(defaultReplyText("openai-chat", "Hello LangChain"));
    const [conversationId, ...others] = await keyConversations(keyId);
    expect(others).toEqual([]);
    expect(env.providers.requests).toHaveLength(1);
    expect(await lastRecordedBody(conversationId)).toBe(env.providers.requests[0].body);

    history.push(new AIMessage(textOf(first)), new HumanMessage("And now stream"));
    let streamed = "";
    let chunks = 0;
    for await (const chunk of await model.stream(history)) {
      streamed += textOf(chunk);
      chunks++;
    }
    expect(chunks).toBeGreaterThan(1);
    expect(streamed).toBe(defaultReplyText("openai-chat", "And now stream"));
    // The second call continued the first conversation: still one, and the provider got the whole history once.
    expect(await keyConversations(keyId)).toEqual([conversationId]);
    expect(env.providers.requests).toHaveLength(2);
    const sent = JSON.parse(env.providers.requests[1].body) as { messages: { role: string }[] };
    expect(sent.messages.filter((message) => message.role !== "system")).toHaveLength(3);
    expect(await lastRecordedBody(conversationId)).toBe(env.providers.requests[1].body);

    history.push(new AIMessage(streamed), new HumanMessage("Third"));
    expect(textOf(await model.invoke(history))).toBe(defaultReplyText("openai-chat", "Third"));
    expect(await keyConversations(keyId)).toEqual([conversationId]);
    expect(await lastRecordedBody(conversationId)).toBe(env.providers.requests[2].body);

    const stored = await listMessages({ db: await getDb(), conversationId });
    expect(
      stored.map((message) => [message.authorType, (message.parts[0] as { text: string }).text]),
    ).toEqual([
      ["user", "Hello LangChain"],
      ["persona", textOf(first)],
      ["user", "And now stream"],
      ["persona", streamed],
      ["user", "Third"],
      ["persona", defaultReplyText("openai-chat", "Third")],
    ]);
  });
});
