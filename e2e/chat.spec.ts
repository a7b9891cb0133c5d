import { expect, test } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { ChatPage, uniqueEmail } from "./pages/chat-page";

const fake = fakeProvidersForSpec();

test("register, chat with a streamed reply, reload, sign out and be refused", async ({ page, request }) => {
  const chat = new ChatPage(page);
  const account = { name: "Ada", email: uniqueEmail("ada"), password: "correct horse battery" };
  await chat.registerWithForm(account);
  const conversationId = await chat.newConversation();

  await fake.script({ kind: "text", text: "Hello Ada, streamed in pieces.", chunks: 6, chunkDelayMs: 40 });
  await chat.send("Hi there, model!");

  await expect(chat.messages("user").getByTestId("message-text")).toHaveText(["Hi there, model!"]);
  await expect(chat.messages("assistant").getByTestId("message-text")).toHaveText(
    "Hello Ada, streamed in pieces.",
  );
  await chat.waitUntilReady();

  // The provider received the user's words in a real OpenAI chat-completions request.
  const [received] = await fake.requests("openai-chat");
  expect(received.path).toBe("/v1/chat/completions");
  expect(JSON.parse(received.body).messages.at(-1)).toEqual({ role: "user", content: "Hi there, model!" });

  await page.reload();
  await expect(chat.messages("user").getByTestId("message-text")).toHaveText(["Hi there, model!"]);
  await expect(chat.messages("assistant").getByTestId("message-text")).toHaveText(
    "Hello Ada, streamed in pieces.",
  );

  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto(`/chat/${conversationId}`);
  await expect(page).toHaveURL(/\/sign-in$/);
  const api = await page.request.get(`/api/conversations/${conversationId}/messages`);
  expect(api.status()).toBe(401);
  expect((await api.json()).error.code).toBe("unauthorized");
  void request;
});

test("another user's conversation is not found", async ({ page, browser }) => {
  const owner = new ChatPage(page);
  await owner.register({ name: "Owner", email: uniqueEmail("owner"), password: "owner password 1" });
  const conversationId = await owner.newConversation();

  const otherContext = await browser.newContext();
  const other = new ChatPage(await otherContext.newPage());
  await other.register({ name: "Other", email: uniqueEmail("other"), password: "other password 1" });
  const response = await other.page.request.get(`/api/conversations/${conversationId}`);
  expect(response.status()).toBe(404);
  await other.page.goto(`/chat/${conversationId}`);
  await expect(other.page.getByText("404")).toBeVisible();
  await otherContext.close();
});
