// Sending images: a message carries uploaded images as file parts whose url is the
// attachment's route. The images become the message's in the same transaction as the message; the model receives
// them per its capabilities; anything that is not an upload of this user in this conversation is refused, and
// nothing is stored. Fake OpenAI server, real route, real database.
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import * as chatRoute from "@/app/api/chat/route";
import * as uploadRoute from "@/app/api/conversations/[id]/attachments/route";
import { getDb } from "@/db/client";
import { attachments } from "@/db/schema";
import { TEST_IMAGES } from "@/tests/fixtures/images";
import { call, expectError, readUIStream, type TestUser } from "../api-client";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { createConversation, insertPersona } from "../fixtures/personas";
import { fetchTurns, storedMessages } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");
const bob = signedUpForFile("Bob");

async function uploadPng(user: TestUser, conversationId: string, bytes: Uint8Array = TEST_IMAGES.png) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type: "image/png" }), "square.png");
  const response = await call(uploadRoute.POST, `/api/conversations/${conversationId}/attachments`, {
    user,
    method: "POST",
    params: { id: conversationId },
    body: form,
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { attachment: { id: string; url: string } }).attachment;
}

function chat(user: TestUser, conversationId: string, parts: unknown[]) {
  return call(chatRoute.POST, "/api/chat", {
    user,
    body: { id: conversationId, message: { role: "user", parts }, trigger: "submit-message" },
  });
}

async function conversationOn(modelId: string, user = ada) {
  const persona = await insertPersona({ modelId });
  return createConversation(user, persona);
}

/** On a conversation with `modelId`, Ada sends an uploaded PNG (and `text`, if any); the reply is `reply`. */
async function sendImage(modelId: string, reply: string, text?: string) {
  const conversationId = await conversationOn(modelId);
  const image = await uploadPng(ada, conversationId);
  env.providers.script({ kind: "text", text: reply });
  const parts: unknown[] = [{ type: "file", mediaType: "image/png", url: image.url }];
  if (text !== undefined) parts.push({ type: "text", text });
  const response = await chat(ada, conversationId, parts);
  expect(response.status).toBe(200);
  await readUIStream(response);
  return { conversationId, image };
}

const base64 = Buffer.from(TEST_IMAGES.png).toString("base64");

describe("a message with images", () => {
  test("the image becomes the message's and a vision model receives it beside the text", async () => {
    const { conversationId, image } = await sendImage(
      "openai:gpt-4.1-mini",
      "A tiny picture.",
      "What is this?",
    );

    const [question] = await storedMessages(conversationId);
    expect(question.parts).toEqual([
      { type: "text", text: "What is this?" },
      { type: "media", attachmentId: image.id },
    ]);
    const db = await getDb();
    const [row] = await db.select().from(attachments).where(eq(attachments.id, image.id));
    expect(row.messageId).toBe(question.id);
    const body = env.providers.requests[0].body;
    expect(body).toContain(`data:image/png;base64,${base64}`);
    expect(body).toContain("What is this?");
  });

  test("an image alone, without text, is a message", async () => {
    const { conversationId, image } = await sendImage("openai:gpt-4.1-mini", "Nice.");
    const [question] = await storedMessages(conversationId);
    expect(question.parts).toEqual([{ type: "media", attachmentId: image.id }]);
  });

  test("a model without vision gets a notice instead of the bytes", async () => {
    // The OpenAI-compatible "local" model is registered without vision.
    const { conversationId } = await sendImage(
      "openai-compatible:local",
      "I cannot see it.",
      "Can you see it?",
    );
    const { turns } = await fetchTurns(ada, conversationId);
    const [attempt] = turns[0].attempts;
    const sent = attempt.items.flatMap((item) => item.parts);
    expect(sent.some((part) => part.type === "image")).toBe(false);
    const notice = sent.find((part) => part.type === "text" && part.text?.includes("cannot see images"));
    expect(notice?.text).toContain("media_");
    expect(env.providers.requests[0].body).not.toContain(base64);
    expect(env.providers.requests[0].body).toContain("Current model cannot see images");
  });

  test("sending an already sent image again copies it for the new message", async () => {
    const conversationId = await conversationOn("openai:gpt-4.1-mini");
    const image = await uploadPng(ada, conversationId);
    env.providers.script({ kind: "text", text: "One." }, { kind: "text", text: "Two." });
    await readUIStream(
      await chat(ada, conversationId, [
        { type: "file", url: image.url },
        { type: "text", text: "a" },
      ]),
    );
    await readUIStream(
      await chat(ada, conversationId, [
        { type: "file", url: image.url },
        { type: "text", text: "a" },
      ]),
    );
    const messages = await storedMessages(conversationId);
    const [first, , second] = messages;
    const secondId = (second.parts.find((part) => part.type === "media") as { attachmentId: string })
      .attachmentId;
    expect(secondId).not.toBe(image.id);
    const db = await getDb();
    const [copy] = await db.select().from(attachments).where(eq(attachments.id, secondId));
    const [original] = await db.select().from(attachments).where(eq(attachments.id, image.id));
    expect(copy).toMatchObject({
      messageId: second.id,
      sha256: original.sha256,
      storageKey: original.storageKey,
    });
    expect(original.messageId).toBe(first.id);
  });

  test.each([
    {
      case: "inline data instead of an upload",
      url: `data:image/png;base64,${base64}`,
      message: /uploaded first/,
    },
    { case: "a remote URL", url: "https://example.com/cat.png", message: /uploaded first/ },
  ])("refused: $case (400, nothing stored)", async ({ url, message }) => {
    const conversationId = await conversationOn("openai:gpt-4.1-mini");
    const response = await chat(ada, conversationId, [
      { type: "file", url },
      { type: "text", text: "look" },
    ]);
    expect(await expectError(response, 400, "bad_request")).toMatch(message);
    expect(await storedMessages(conversationId)).toEqual([]);
    expect(env.providers.requests).toHaveLength(0);
  });

  test("refused: an image of another conversation, or another user's unsent upload; nothing is stored", async () => {
    const conversationId = await conversationOn("openai:gpt-4.1-mini");
    const elsewhere = await conversationOn("openai:gpt-4.1-mini");
    const foreign = await uploadPng(ada, elsewhere);
    const response = await chat(ada, conversationId, [
      { type: "file", url: foreign.url },
      { type: "text", text: "x" },
    ]);
    expect(await expectError(response, 400, "bad_request")).toContain(foreign.id);
    expect(await storedMessages(conversationId)).toEqual([]);
    const db = await getDb();
    const [still] = await db.select().from(attachments).where(eq(attachments.id, foreign.id));
    expect(still.messageId).toBeNull();

    // Bob's upload to his own conversation cannot be sent by Ada in hers either.
    const bobs = await conversationOn("openai:gpt-4.1-mini", bob);
    const bobImage = await uploadPng(bob, bobs);
    const theft = await chat(ada, conversationId, [
      { type: "file", url: bobImage.url },
      { type: "text", text: "x" },
    ]);
    expect(theft.status).toBe(400);
    expect(env.providers.requests).toHaveLength(0);
  });

  test("refused: more than 10 images", async () => {
    const conversationId = await conversationOn("openai:gpt-4.1-mini");
    const parts = Array.from({ length: 11 }, () => ({
      type: "file",
      url: "/api/attachments/00000000-0000-7000-8000-000000000001",
    }));
    expect(await expectError(await chat(ada, conversationId, parts), 400, "bad_request")).toContain(
      "at most 10",
    );
  });
});
