// Search in the browser: the sidebar's search box finds a word inside an old message (and titles), shows the
// hit with the word highlighted, and opening the hit scrolls the conversation to that message and flashes it.
import { expect, test } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { ChatPage, uniqueEmail } from "./pages/chat-page";

fakeProvidersForSpec();

test("search finds a word inside an old message and jumps to it", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.register({ name: "Searcher", email: uniqueEmail("search"), password: "correct horse battery" });
  const created = await page.request.post("/api/conversations", { data: { title: "Family recipes" } });
  expect(created.status()).toBe(201);
  const id = (await created.json()).id as string;
  const other = await page.request.post("/api/conversations", { data: { title: "Cardamom buns" } });
  const otherId = (await other.json()).id as string;

  // The word is in the first message; a dozen later turns push it far above the fold.
  await chat.seedTurns(id, [
    "My grandmother's bread used cardamom, saffron and a little rye.",
    ...Array.from({ length: 12 }, (_, index) => `Filler question ${index + 1} about oven temperatures.`),
  ]);
  const { messages } = await (await page.request.get(`/api/conversations/${id}/messages`)).json();
  const oldMessage = messages.find(
    (message: { authorType: string; parts: Array<{ text?: string }> }) =>
      message.authorType === "user" && message.parts[0]?.text?.includes("cardamom"),
  );
  expect(oldMessage).toBeDefined();

  await page.goto(`/chat/${otherId}`);
  await chat.searchConversations("cardamom");
  // Found by its message in one conversation and by its title in the other.
  await expect(chat.conversationItems().getByTestId("conversation-link")).toHaveText([
    "Family recipes",
    "Cardamom buns",
  ]);
  const hit = chat
    .conversationItem(id)
    .locator(`[data-testid="search-hit"][data-message-id="${oldMessage.id}"]`);
  await expect(hit).toBeVisible();
  await expect(hit.getByTestId("search-hit-snippet")).toContainText("grandmother's bread used cardamom");
  await expect(hit.locator("mark")).toHaveText(["cardamom"]);
  await expect(chat.conversationItem(otherId).getByTestId("search-hit")).toHaveCount(0);

  await hit.click();
  await expect(page).toHaveURL(new RegExp(`/chat/${id}\\?message=${oldMessage.id}$`));
  const target = page.locator(`[data-testid="message"][data-message-id="${oldMessage.id}"]`);
  await expect(target).toHaveAttribute("data-highlighted", "true");
  await expect(target).toBeInViewport();
  // The newest message is far below: the view really moved to the old one.
  await expect(chat.messages("assistant").last()).not.toBeInViewport();

  // Markup typed into a message is shown as text in a snippet, never run.
  await chat.seedTurns(id, ["Quince jelly <img src=x onerror=\"document.title='pwned'\"> sets overnight."]);
  await chat.searchConversations("quince");
  const markupHit = chat.conversationItem(id).getByTestId("search-hit").first();
  await expect(markupHit.getByTestId("search-hit-snippet")).toContainText("<img src=x");
  await expect(markupHit.locator("img")).toHaveCount(0);
  expect(await page.title()).not.toBe("pwned");

  await chat.searchConversations("no such words anywhere");
  await expect(page.getByTestId("conversation-list-empty")).toContainText("no such words anywhere");
});
