// Model choice in the chat: the owner picks the conversation's model in the header and the next reply names it;
// a 429 with retry-after shows what the reply waits for in place of the dots; a reply that fell back names both
// models, the same after a reload; "Regenerate with…" answers one variant with another model.
import { expect, type Page, test } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { ChatPage, uniqueEmail } from "./pages/chat-page";

const fake = fakeProvidersForSpec();

async function register(page: Page, name: string) {
  const chat = new ChatPage(page);
  await chat.register({ name, email: uniqueEmail(name.toLowerCase()), password: "correct horse battery" });
  return chat;
}

test("the header's model answers; retries show their progress; a fallback names both models", async ({
  page,
}) => {
  const chat = await register(page, "Chooser");
  const conversationId = await chat.newConversation();
  await expect(page.getByTestId("model-id")).toHaveText("openai:gpt-4.1-mini");

  await page.getByTestId("model-picker").selectOption("google:gemini-2.5-flash");
  await expect(page.getByTestId("model-id")).toHaveText("google:gemini-2.5-flash");
  const stored = await (await page.request.get(`/api/conversations/${conversationId}`)).json();
  expect(stored.conversation.modelId).toBe("google:gemini-2.5-flash");

  await fake.script({ kind: "text", text: "Gemini here.", protocol: "gemini" });
  await chat.sendAndWait("Who is answering?");
  const first = chat.messages("assistant").last();
  await expect(first.getByTestId("message-text")).toHaveText("Gemini here.");
  await expect(first.getByTestId("reply-model")).toHaveText("google:gemini-2.5-flash");
  await expect(first.getByTestId("reply-fallback")).toHaveCount(0);

  // Gemini is rate limited and then broken: the persona's own model answers in its place.
  await fake.script([
    { kind: "error", status: 429, retryAfterSeconds: 2, message: "Slow down", protocol: "gemini" },
    { kind: "error", status: 500, message: "Broken", protocol: "gemini", times: 2 },
    { kind: "text", text: "OpenAI steps in.", protocol: "openai-chat" },
  ]);
  await chat.send("And now?");
  await expect(page.getByTestId("retry-progress")).toHaveText("429 — retrying in 2 s");
  const second = chat.messages("assistant").last();
  await expect(second.getByTestId("message-text")).toHaveText("OpenAI steps in.");
  await chat.waitUntilReady();
  await expect(page.getByTestId("retry-progress")).toHaveCount(0);
  await expect(second.getByTestId("reply-model")).toHaveText("openai:gpt-4.1-mini");
  await expect(second.getByTestId("reply-fallback")).toHaveText("fell back from google:gemini-2.5-flash");
  // The header still names the conversation's model: the fallback is the reply's, not the conversation's.
  await expect(page.getByTestId("model-id")).toHaveText("google:gemini-2.5-flash");

  await page.reload();
  const reloaded = chat.messages("assistant");
  await expect(reloaded.getByTestId("reply-model")).toHaveText([
    "google:gemini-2.5-flash",
    "openai:gpt-4.1-mini",
  ]);
  await expect(reloaded.getByTestId("reply-fallback")).toHaveText(["fell back from google:gemini-2.5-flash"]);

  // Regenerate with… one variant answered by another model; the conversation's model stays.
  await fake.script({ kind: "text", text: "OpenAI by choice.", protocol: "openai-chat" });
  await reloaded.last().getByTestId("regenerate-with").selectOption("openai:gpt-4.1-mini");
  await expect(reloaded.last().getByTestId("message-text")).toHaveText("OpenAI by choice.");
  await chat.waitUntilReady();
  await expect(reloaded.last().getByTestId("reply-model")).toHaveText("openai:gpt-4.1-mini");
  await expect(reloaded.last().getByTestId("reply-fallback")).toHaveCount(0);
  await expect(page.getByTestId("model-id")).toHaveText("google:gemini-2.5-flash");
  const requests = await fake.requests();
  expect(requests.map((request) => request.model)).toEqual([
    "gemini-2.5-flash",
    "gemini-2.5-flash",
    "gemini-2.5-flash",
    "gemini-2.5-flash",
    "gpt-4.1-mini",
    "gpt-4.1-mini",
  ]);
});
