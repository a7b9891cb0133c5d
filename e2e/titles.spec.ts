// Generated titles in the browser: after the first exchange the sidebar and the header show the title the
// utility model wrote (not "New conversation"), and the user can rename it; a later turn keeps the new name.
import { expect, test } from "@playwright/test";
import { fakeProviderClient } from "./fake-providers/client";
import { ChatPage, uniqueEmail } from "./pages/chat-page";

const fake = fakeProviderClient(`http://127.0.0.1:${process.env.E2E_FAKE_PORT ?? 4010}`);

test.beforeEach(async () => {
  await fake.reset();
});

test("a title appears after the first exchange and can be renamed", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.register({ name: "Titles", email: uniqueEmail("titles"), password: "correct horse battery" });
  const id = await chat.newConversation();
  await expect(page.getByTestId("conversation-title")).toHaveText("New conversation");
  await expect(chat.conversationItem(id).getByTestId("conversation-link")).toHaveText("New conversation");

  // The chat request takes the first reply, the title request (made after the reply finished) the second.
  await fake.script([
    { kind: "text", text: "Porto is best seen on foot." },
    { kind: "text", text: '"Weekend in Porto."' },
  ]);
  await chat.sendAndWait("Plan a weekend in Porto for two.");
  await expect(chat.messages("assistant").last()).toContainText("Porto is best seen on foot.");
  await expect(chat.conversationItem(id).getByTestId("conversation-link")).toHaveText("Weekend in Porto");
  await expect(page.getByTestId("conversation-title")).toHaveText("Weekend in Porto");

  await chat.renameConversation(id, "Porto with Sam");
  await chat.sendAndWait("Add a day trip to the Douro valley.");
  await page.reload();
  await expect(chat.conversationItem(id).getByTestId("conversation-link")).toHaveText("Porto with Sam");
  await expect(page.getByTestId("conversation-title")).toHaveText("Porto with Sam");
  const stored = await (await page.request.get(`/api/conversations/${id}`)).json();
  expect(stored.conversation.title).toBe("Porto with Sam");
});
