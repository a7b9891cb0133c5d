// Images through the gateway with the official `openai` client: a `data:` URL in a chat `image_url` part or a
// Responses `input_image` part is stored as the user message's media, as an upload through the chat is, so the
// persona's pipeline sends it to the fake provider in the provider's own wire format and the attempt records those
// very bytes; a later call that sends the image back continues the conversation; every bad image is a 400 in
// OpenAI's shape naming the field, with nothing stored and nothing sent.
import { eq } from "drizzle-orm";
import type OpenAI from "openai";
import { describe, expect, test } from "vitest";
import * as attemptRoute from "@/app/api/attempts/[id]/route";
import { getDb } from "@/db/client";
import { listMessages } from "@/db/message-queries";
import { attachments, conversations } from "@/db/schema";
import { defaultReplyText } from "@/e2e/fake-providers/reply-plan";
import { call } from "../api-client";
import { withEnv } from "../fixtures/env";
import { fakeProvidersAndUsersForFile } from "../fixtures/file-setup";
import { makePng, TEST_IMAGES } from "../fixtures/images";
import { createKey, gatewayClient, gatewayPersona, refusedAsBadRequest } from "./gateway-fixtures";
import { conversationRows } from "./row-counts";

const { env, ada } = fakeProvidersAndUsersForFile("Ada");

type ChatParams = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;

const persona = () => gatewayPersona("Viewer");

async function client() {
  return gatewayClient((await createKey(ada, { name: "images" })).secret);
}

const dataUrl = (bytes: Buffer, mime = "image/png") => `data:${mime};base64,${bytes.toString("base64")}`;

/** One user message of `content` sent to a new persona through Chat Completions, with the raw response. */
async function chatWithUserContent(content: OpenAI.Chat.Completions.ChatCompletionContentPart[]) {
  const viewer = await persona();
  return (await client()).chat.completions
    .create({ model: viewer.slug as string, messages: [{ role: "user", content }] })
    .withResponse();
}

async function recordedBody(attemptId: string): Promise<string | undefined> {
  const response = await call(attemptRoute.GET, `/api/attempts/${attemptId}`, {
    user: ada,
    params: { id: attemptId },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { attempt: { request: { body: string } | null } }).attempt.request?.body;
}

/** The image parts of the provider's last request, in OpenAI's chat wire format. */
function sentImageUrls(): string[] {
  const body = JSON.parse(env.providers.requests.at(-1)?.body ?? "null") as {
    messages: { role: string; content: unknown }[];
  };
  return body.messages.flatMap((message) =>
    Array.isArray(message.content)
      ? message.content
          .filter((part: { type: string }) => part.type === "image_url")
          .map((part: { image_url: { url: string } }) => part.image_url.url)
      : [],
  );
}

describe("images in", () => {
  test("chat: an image_url data: URL reaches the provider as its image part; the attempt records those bytes", async () => {
    const png = makePng(24, 3);
    const { data, response } = await chatWithUserContent([
      { type: "text", text: "What is in this picture?" },
      { type: "image_url", image_url: { url: dataUrl(png), detail: "low" } },
    ]);
    expect(data.choices[0].message.content).toBe(defaultReplyText("openai-chat", "What is in this picture?"));
    expect(sentImageUrls()).toEqual([dataUrl(png)]);
    // Byte truth: the attempt's request (its image bytes restored from the attachment) is what the provider got.
    const attemptId = response.headers.get("x-glassbox-attempt-id") as string;
    expect(await recordedBody(attemptId)).toBe(env.providers.requests.at(-1)?.body);

    // Stored as an upload through the chat is: one attachment of the user message, sniffed and hashed.
    const conversationId = response.headers.get("x-glassbox-conversation-id") as string;
    const [userMessage] = await listMessages({ db: await getDb(), conversationId });
    const [stored] = await conversationRows(attachments, conversationId);
    expect(userMessage.parts).toEqual([
      { type: "text", text: "What is in this picture?" },
      { type: "media", attachmentId: stored.id },
    ]);
    expect(stored).toMatchObject({
      messageId: userMessage.id,
      uploadedBy: ada.id,
      kind: "image",
      mime: "image/png",
      width: 24,
      height: 24,
      sizeBytes: png.length,
    });
  });

  test("chat: an image alone is a message; the bytes decide the stored type, not the declared one", async () => {
    const { response } = await chatWithUserContent([
      { type: "image_url", image_url: { url: dataUrl(TEST_IMAGES.jpegBaseline, "image/png") } },
    ]);
    expect(sentImageUrls()).toEqual([dataUrl(TEST_IMAGES.jpegBaseline, "image/jpeg")]);
    const [stored] = await conversationRows(
      attachments,
      response.headers.get("x-glassbox-conversation-id") as string,
    );
    expect(stored).toMatchObject({ mime: "image/jpeg", width: 3, height: 2 });
  });

  test("a megabyte image is read and sent whole", async () => {
    const large = makePng(600, 4);
    expect(large.length).toBeGreaterThan(1024 * 1024);
    await chatWithUserContent([{ type: "image_url", image_url: { url: dataUrl(large) } }]);
    expect(sentImageUrls()).toEqual([dataUrl(large)]);
  });

  test("responses: an input_image data: URL reaches the provider; the attempt records those bytes", async () => {
    const viewer = await persona();
    const png = makePng(20, 5);
    const { data, response } = await (await client()).responses
      .create({
        model: viewer.slug as string,
        input: [
          {
            role: "user",
            content: [
              { type: "input_text", text: "Describe it" },
              { type: "input_image", image_url: dataUrl(png), detail: "auto" },
            ],
          },
        ],
      })
      .withResponse();
    expect(data.output_text).toBe(defaultReplyText("openai-chat", "Describe it"));
    expect(sentImageUrls()).toEqual([dataUrl(png)]);
    expect(await recordedBody(response.headers.get("x-glassbox-attempt-id") as string)).toBe(
      env.providers.requests.at(-1)?.body,
    );
  });
});

describe("continuity with an earlier image", () => {
  test("sending the image back continues the conversation; its bytes are stored once and sent again", async () => {
    const viewer = await persona();
    const gateway = await client();
    const png = makePng(16, 7);
    const first: OpenAI.Chat.Completions.ChatCompletionMessageParam = {
      role: "user",
      content: [
        { type: "text", text: "Look" },
        { type: "image_url", image_url: { url: dataUrl(png) } },
      ],
    };
    const one = await gateway.chat.completions
      .create({ model: viewer.slug as string, messages: [first] })
      .withResponse();
    const conversationId = one.response.headers.get("x-glassbox-conversation-id") as string;
    const reply = one.data.choices[0].message.content as string;

    const two = await gateway.chat.completions
      .create({
        model: viewer.slug as string,
        messages: [first, { role: "assistant", content: reply }, { role: "user", content: "And now?" }],
      })
      .withResponse();
    expect(two.response.headers.get("x-glassbox-conversation-id")).toBe(conversationId);
    expect(await listMessages({ db: await getDb(), conversationId })).toHaveLength(4);
    expect(await conversationRows(attachments, conversationId)).toHaveLength(1);
    // The stored conversation, as the pipeline builds it, still shows the model the earlier image.
    expect(sentImageUrls()).toEqual([dataUrl(png)]);

    // Another picture in the same place is another transcript: a new conversation holding it.
    const other = makePng(16, 8);
    const three = await gateway.chat.completions
      .create({
        model: viewer.slug as string,
        messages: [
          {
            ...first,
            content: [
              { type: "text", text: "Look" },
              { type: "image_url", image_url: { url: dataUrl(other) } },
            ],
          },
          { role: "assistant", content: reply },
          { role: "user", content: "And now?" },
        ],
      })
      .withResponse();
    const started = three.response.headers.get("x-glassbox-conversation-id") as string;
    expect(started).not.toBe(conversationId);
    const storedHistory = await listMessages({ db: await getDb(), conversationId: started });
    const [earlierImage] = await conversationRows(attachments, started);
    expect(storedHistory[0].parts).toEqual([
      { type: "text", text: "Look" },
      { type: "media", attachmentId: earlierImage.id },
    ]);
    expect(earlierImage.messageId).toBe(storedHistory[0].id);
    expect(sentImageUrls()).toEqual([dataUrl(other)]);
  });
});

describe("bad images: BadRequestError naming the field, nothing stored or sent", () => {
  const png = makePng(8, 1);
  const truncated = TEST_IMAGES.png.subarray(0, TEST_IMAGES.png.length - 6);
  const pdf = Buffer.from("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n");
  const cases: [string, string, string][] = [
    ["a remote URL", "https://example.com/cat.png", "data: URL"],
    ["not a data: URL", "cat.png", "data: URL"],
    ["bad base64", "data:image/png;base64,iVBOR!!w0KGgo=", "base64"],
    ["a data: URL that is not base64", "data:image/png,rawbytes", "base64"],
    ["an SVG", dataUrl(TEST_IMAGES.svg, "image/svg+xml"), "image/svg+xml"],
    ["text declared", dataUrl(png, "text/plain"), "text/plain"],
    [
      "bytes that are no image",
      dataUrl(Buffer.from("hello, not an image"), "image/png"),
      "not a JPEG, PNG, GIF or WebP image",
    ],
    ["a truncated PNG", dataUrl(truncated), "truncated"],
    ["a PDF declared as an image", dataUrl(pdf, "image/png"), "a PDF document, not an image"],
    ["an empty image", "data:image/png;base64,", "empty"],
  ];

  test.each(cases)("chat, %s", async (_name, url, words) => {
    const viewer = await persona();
    const error = await refusedAsBadRequest(
      (await client()).chat.completions.create({
        model: viewer.slug as string,
        messages: [
          { role: "system", content: "sys" },
          {
            role: "user",
            content: [
              { type: "text", text: "see" },
              { type: "image_url", image_url: { url } },
            ],
          },
        ],
      }),
      { type: "invalid_request_error", param: "messages[1].content[1].image_url.url" },
    );
    expect(error.message).toContain(words);
    expect(env.providers.requests).toHaveLength(0);
  });

  test("responses, a remote URL and a file id", async () => {
    const viewer = await persona();
    const gateway = await client();
    for (const [part, param] of [
      [
        { type: "input_image", image_url: "http://169.254.169.254/x.png", detail: "auto" },
        "input[0].content[1].image_url",
      ],
      [{ type: "input_image", file_id: "file-123", detail: "auto" }, "input[0].content[1].file_id"],
    ] as const) {
      await refusedAsBadRequest(
        gateway.responses.create({
          model: viewer.slug as string,
          input: [{ role: "user", content: [{ type: "input_text", text: "see" }, part] }],
        } as OpenAI.Responses.ResponseCreateParamsNonStreaming),
        { param },
      );
    }
    expect(env.providers.requests).toHaveLength(0);
  });

  test("over the image limit: the 413 of an upload becomes a 400 naming the field", async () => {
    const viewer = await persona();
    const gateway = await client();
    await withEnv({ MEDIA_MAX_IMAGE_BYTES: "200" }, async () => {
      const error = await refusedAsBadRequest(
        gateway.chat.completions.create({
          model: viewer.slug as string,
          messages: [
            { role: "user", content: [{ type: "image_url", image_url: { url: dataUrl(makePng(32, 2)) } }] },
          ],
        }),
        { param: "messages[0].content[0].image_url.url" },
      );
      expect(error.message).toContain("the limit for images");
    });
  });

  test.each([
    [
      "an image on the assistant's message",
      [
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: [{ type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }],
        },
        { role: "user", content: "again" },
      ],
      "messages[1].content[0]",
    ],
    [
      "a detail that is not one of OpenAI's",
      [{ role: "user", content: [{ type: "image_url", image_url: { url: dataUrl(png), detail: "max" } }] }],
      "messages[0].content[0].image_url.detail",
    ],
    [
      "an image_url that is a string",
      [{ role: "user", content: [{ type: "image_url", image_url: dataUrl(png) }] }],
      "messages[0].content[0].image_url",
    ],
  ])("chat, %s", async (_name, messages, param) => {
    const viewer = await persona();
    await refusedAsBadRequest(
      (await client()).chat.completions.create({
        model: viewer.slug as string,
        messages,
      } as unknown as ChatParams),
      { param },
    );
    expect(env.providers.requests).toHaveLength(0);
  });

  test("a refused image leaves no conversation and no attachment behind", async () => {
    const viewer = await persona();
    await (await client()).chat.completions
      .create({
        model: viewer.slug as string,
        messages: [
          { role: "user", content: [{ type: "image_url", image_url: { url: "data:image/png;base64,!!" } }] },
        ],
      })
      .catch(() => {});
    const db = await getDb();
    expect(await db.select().from(conversations).where(eq(conversations.personaId, viewer.id))).toEqual([]);
  });
});
