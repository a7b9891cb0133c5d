// Preview: a dry run returns exactly the request the next real turn then sends, byte for byte, on
// every wire protocol, without calling a model or storing anything.
import { describe, expect, test } from "vitest";
import * as previewRoute from "@/app/api/conversations/[id]/preview/route";
import * as conversationRoute from "@/app/api/conversations/[id]/route";
import type { Protocol } from "@/e2e/fake-providers/server";
import { call, okText, type TestUser } from "../api-client";
import { insertImageMessage } from "../fixtures/attachments";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { conversationWithPersona } from "../fixtures/personas";
import { fetchTurns, runTurn, storedMessages } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");

interface Preview {
  modelId: string;
  items: Array<{ tag: string }>;
  request: { url: string; body: string };
  trace: Array<{ stage: string; action: string; reason: string }>;
}

async function preview(
  user: TestUser,
  conversationId: string,
  body: Record<string, unknown>,
): Promise<Preview> {
  const response = await call(previewRoute.POST, `/api/conversations/${conversationId}/preview`, {
    user,
    body,
    params: { id: conversationId },
  });
  return (JSON.parse(await okText(response, "preview")) as { preview: Preview }).preview;
}

const CASES: Array<{ protocol: Protocol; modelId: string }> = [
  { protocol: "openai-chat", modelId: "openai:gpt-4.1-mini" },
  { protocol: "openai-responses", modelId: "openai:gpt-5-mini" },
  { protocol: "gemini", modelId: "google:gemini-2.5-flash" },
];

describe("preview, then the real turn", () => {
  test.each(CASES)(
    "$protocol: the preview's body is the body the provider then receives",
    async ({ modelId }) => {
      const conversationId = await conversationWithPersona(ada, {
        modelId,
        systemPrompt: "Preview persona.",
      });
      // Some history first (with an image), so the body has more than the new message.
      await insertImageMessage({ conversationId, user: ada, text: "A picture for later." });
      await runTurn(ada, conversationId, "First question");
      env.providers.reset();
      const before = await storedMessages(conversationId);

      const text = "Second question, previewed first — «ünïcødé»";
      const dryRun = await preview(ada, conversationId, { text });
      expect(dryRun.modelId).toBe(modelId);
      expect(dryRun.items.at(-1)?.tag).toBe("CURRENT_INPUT");
      // Nothing was sent and nothing was stored.
      expect(env.providers.requests).toEqual([]);
      expect(await storedMessages(conversationId)).toEqual(before);

      await runTurn(ada, conversationId, text);
      expect(env.providers.requests).toHaveLength(1);
      const received = env.providers.requests[0];
      expect(dryRun.request).toEqual({ url: `${env.providers.url}${received.path}`, body: received.body });

      const { turns } = await fetchTurns(ada, conversationId);
      expect(turns.at(-1)?.attempts[0].request).toEqual(dryRun.request);
    },
  );

  test("with a bounded history window, a note at depth, speaker labels and stop strings, still the same bytes", async () => {
    const conversationId = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
    const patched = await call(conversationRoute.PATCH, `/api/conversations/${conversationId}`, {
      method: "PATCH",
      user: ada,
      params: { id: conversationId },
      body: {
        instructions: "Answer in one line.",
        settingsOverride: {
          history: { messageFetchLimit: 3, speakerLabels: "always" },
          // Manual summaries: otherwise the fetch-limit overflow is summarised before the turn (issue 11), and
          // this test is about the bounded window itself.
          summary: { mode: "manual" },
          contextNote: { text: "Remember the fox.", depth: 1, frequency: 2 },
          stop: { strings: ["\nUser:"], speakerPattern: true },
        },
      },
    });
    expect(patched.status).toBe(200);
    for (const question of ["One", "Two", "Three"]) await runTurn(ada, conversationId, question);
    env.providers.reset();

    const text = "Four";
    const dryRun = await preview(ada, conversationId, { text });
    await runTurn(ada, conversationId, text);
    const received = env.providers.requests[0];
    expect(dryRun.request).toEqual({ url: `${env.providers.url}${received.path}`, body: received.body });
    // The window holds the current message and the two before it: the fetch limit counts the new message too.
    const body = JSON.parse(received.body) as { messages: Array<{ role: string; content: unknown }> };
    expect(JSON.stringify(body.messages)).not.toContain("Two");
    // The slide is in the trace: the loader counted the unsummarised messages it left out (One, Two, their replies).
    expect(dryRun.trace).toContainEqual(
      expect.objectContaining({
        stage: "load",
        action: "fetch-limit",
        reason: "4 older messages not loaded (history.messageFetchLimit 3)",
      }),
    );
  });

  test("a preview for another model builds that model's wire format", async () => {
    const conversationId = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
    const dryRun = await preview(ada, conversationId, { text: "Hi", modelId: "google:gemini-2.5-flash" });
    expect(dryRun.request.url).toBe(
      `${env.providers.url}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`,
    );
    expect(JSON.parse(dryRun.request.body)).toHaveProperty("contents");
    expect(env.providers.requests).toEqual([]);
  });
});

describe("a preview of nothing", () => {
  test.each(["", "   ", "\u200b"])(
    "text %j is refused with a sentence, before anything is built",
    async (text) => {
      const conversationId = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
      const response = await call(previewRoute.POST, `/api/conversations/${conversationId}/preview`, {
        user: ada,
        body: { text },
        params: { id: conversationId },
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
        /^text: a preview needs the text of the message to send/,
      );
      expect(env.providers.requests).toEqual([]);
    },
  );
});
