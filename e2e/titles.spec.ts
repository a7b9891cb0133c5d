// Generated titles in the browser: after the first exchange the sidebar and the header show the generated title
// (not "New conversation"), and the user can rename it; a later turn keeps the new name.
import { expect, test } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { ChatPage, uniqueEmail } from "./pages/chat-page";

const fake = fakeProvidersForSpec();

test("a title appears after the first exchange and can be renamed", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.register({ name: "Titles", email: uniqueEmail("titles"), password: "correct horse battery" });
  const id = await chat.newConversation();
  await expect(page.getByTestId("conversation-title")).toHaveText("New conversation");
  await expect(chat.conversationItem(id).getByTestId("conversation-link")).toHaveText("New conversation");

  // The e2e server writes titles with the offline model (TITLE_MODEL_ID): the first sentence, cleaned.
  await fake.script({ kind: "text", text: "Porto is best seen on foot." });
  await chat.sendAndWait("Plan a weekend in Porto for two? We like walking.");
  await expect(chat.messages("assistant").last()).toContainText("Porto is best seen on foot.");
  await expect(chat.conversationItem(id).getByTestId("conversation-link")).toHaveText(
    "Plan a weekend in Porto for two",
  );
  await expect(page.getByTestId("conversation-title")).toHaveText("Plan a weekend in Porto for two");
  // Only the reply went to the provider.
  expect(await fake.requests()).toHaveLength(1);

  await chat.renameConversation(id, "Porto with Sam");
  await chat.sendAndWait("Add a day trip to the Douro valley.");
  await page.reload();
  await expect(chat.conversationItem(id).getByTestId("conversation-link")).toHaveText("Porto with Sam");
  await expect(page.getByTestId("conversation-title")).toHaveText("Porto with Sam");
  const stored = await (await page.request.get(`/api/conversations/${id}`)).json();
  expect(stored.conversation.title).toBe("Porto with Sam");
});
