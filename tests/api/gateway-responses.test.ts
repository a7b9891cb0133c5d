// POST /v1/responses with the official `openai` client: the reply as a response object, streaming typed events
// that end in response.completed, `instructions` as the conversation's, and `previous_response_id` continuing the
// conversation of that response.
import OpenAI from "openai";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { getReadableConversation } from "@/db/conversation-queries";
import { listMessages } from "@/db/message-queries";
import { defaultReplyText } from "@/e2e/fake-providers/reply-plan";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { signedUpForFile } from "../fixtures/users";
import { createKey, gatewayClient, gatewayPersona, refusedAsBadRequest } from "./gateway-fixtures";

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");
const bob = signedUpForFile("Bob");

const persona = () => gatewayPersona("Responder");

async function clientOf(user = ada) {
  return gatewayClient((await createKey(user, { name: "responses" })).secret);
}

describe("POST /v1/responses", () => {
  test("a response with output_text and usage; instructions kept as the conversation's", async () => {
    const tutor = await persona();
    const client = await clientOf();
    const { data, response } = await client.responses
      .create({ model: tutor.slug as string, input: "Hello responses", instructions: "CLIENT INSTRUCTIONS" })
      .withResponse();
    expect(data.object).toBe("response");
    expect(data.status).toBe("completed");
    expect(data.id).toMatch(/^resp_[0-9a-f-]{36}$/);
    expect(data.output_text).toBe(defaultReplyText("openai-chat", "Hello responses"));
    expect(data.usage?.total_tokens).toBeGreaterThan(0);
    const conversation = await getReadableConversation({
      db: await getDb(),
      conversationId: response.headers.get("x-glassbox-conversation-id") as string,
      userId: ada.id,
    });
    expect(conversation.instructions).toBe("CLIENT INSTRUCTIONS");
    expect(env.providers.requests.at(-1)?.body).toContain("CLIENT INSTRUCTIONS");
  });

  test("streaming: typed events from response.created to response.completed", async () => {
    const tutor = await persona();
    const client = await clientOf();
    const stream = await client.responses.create({
      model: tutor.slug as string,
      input: [{ role: "user", content: [{ type: "input_text", text: "Stream it" }] }],
      stream: true,
    });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const types = [...new Set(events.map((event) => event.type))];
    expect(types).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    const deltas = events.flatMap((event) =>
      event.type === "response.output_text.delta" ? [event.delta] : [],
    );
    const reply = defaultReplyText("openai-chat", "Stream it");
    expect(deltas.join("")).toBe(reply);
    const last = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(
      last.response.output_text ??
        (last.response.output[0] as { content: { text: string }[] }).content[0].text,
    ).toBe(reply);
  });

  test("previous_response_id continues that response's conversation; someone else's is refused", async () => {
    const tutor = await persona();
    const client = await clientOf();
    const { data: first, response } = await client.responses
      .create({ model: tutor.slug as string, input: "first" })
      .withResponse();
    const { data: second, response: secondResponse } = await client.responses
      .create({ model: tutor.slug as string, input: "second", previous_response_id: first.id })
      .withResponse();
    expect(second.previous_response_id).toBe(first.id);
    const conversationId = response.headers.get("x-glassbox-conversation-id") as string;
    expect(secondResponse.headers.get("x-glassbox-conversation-id")).toBe(conversationId);
    const stored = await listMessages({ db: await getDb(), conversationId });
    expect(stored.map((message) => (message.parts[0] as { text: string }).text)).toEqual([
      "first",
      first.output_text,
      "second",
      second.output_text,
    ]);

    const error = await (await clientOf(bob)).responses
      .create({ model: tutor.slug as string, input: "mine now", previous_response_id: first.id })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    const unknown = await client.responses
      .create({ model: tutor.slug as string, input: "x", previous_response_id: "resp_nope" })
      .catch((caught: unknown) => caught);
    expect(unknown).toBeInstanceOf(OpenAI.BadRequestError);
    expect(unknown).toMatchObject({ param: "previous_response_id" });
  });

  test.each([
    [{ input: [] }, "input"],
    [{ input: "  " }, "input"],
    [{ input: [{ type: "function_call_output", call_id: "x", output: "y" }] }, "input[0].call_id"],
    [{ input: [{ type: "reasoning", summary: [] }] }, "input[0].type"],
    [
      { input: [{ role: "user", content: [{ type: "input_file", file_id: "file-1" }] }] },
      "input[0].content[0]",
    ],
    [
      { input: [{ role: "user", content: [{ type: "input_image", image_url: "x" }] }] },
      "input[0].content[0].image_url",
    ],
    [{ input: "x", tools: [{ type: "web_search" }] }, "tools[0].type"],
    [
      { input: "x", tools: [{ type: "function", name: "f" }], tool_choice: { type: "function", name: "g" } },
      "tool_choice.name",
    ],
  ])("%j: BadRequestError naming %s", async (body, param) => {
    const tutor = await persona();
    await refusedAsBadRequest(
      (await clientOf()).responses.create({
        model: tutor.slug,
        ...body,
      } as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming),
      { param },
    );
  });
});
