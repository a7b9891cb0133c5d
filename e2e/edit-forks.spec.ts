// Edits fork a question (issue 27), by clicks: editing an answered question gets the edit its own reply, and the
// `< 1 / 2 >` on the question shows the other version with its whole branch (its reply and the turns after it).
import { expect, test } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { startConversation } from "./pages/chat-page";

const fake = fakeProvidersForSpec();

test("edit an answered question: the edit gets a new reply; < shows the old question, its reply and the later turn", async ({
  page,
}) => {
  const { chat } = await startConversation(page, "Forker");
  await chat.askScripted(fake, "Best month for Lisbon?", "May.");
  await chat.askScripted(fake, "And for Porto?", "June.");
  const userTexts = () => chat.messages("user").getByTestId("message-text");
  const replyTexts = () => chat.messages("assistant").getByTestId("message-text");
  const firstQuestion = () => chat.messages("user").first();

  await fake.script({ kind: "text", text: "September, for the sea." });
  await firstQuestion().getByTestId("edit-message").click();
  await page.getByTestId("message-editor-text").fill("Best month for Lisbon beaches?");
  await page.getByTestId("message-editor-save").click();
  await expect(replyTexts()).toHaveText(["September, for the sea."]);
  await chat.waitUntilReady();
  await expect(userTexts()).toHaveText(["Best month for Lisbon beaches?"]);
  await expect(firstQuestion().getByTestId("question-branch-label")).toHaveText("2 / 2");
  await expect(firstQuestion().getByTestId("question-branch-next")).toBeDisabled();
  // The new reply was asked with the edited question alone.
  const requests = await fake.requests("openai-chat");
  const sent = JSON.parse(requests.at(-1)?.body ?? "{}").messages as { role: string; content: string }[];
  expect(sent.filter((message) => message.role !== "system")).toEqual([
    { role: "user", content: "Best month for Lisbon beaches?" },
  ]);

  // `<`: the old question with its old reply and the turn after it; the same after a reload.
  await firstQuestion().getByTestId("question-branch-prev").click();
  await expect(userTexts()).toHaveText(["Best month for Lisbon?", "And for Porto?"]);
  await expect(replyTexts()).toHaveText(["May.", "June."]);
  await expect(firstQuestion().getByTestId("question-branch-label")).toHaveText("1 / 2");
  await page.reload();
  await expect(userTexts()).toHaveText(["Best month for Lisbon?", "And for Porto?"]);
  await expect(replyTexts()).toHaveText(["May.", "June."]);

  // `>`: back to the edit and its reply.
  await firstQuestion().getByTestId("question-branch-next").click();
  await expect(userTexts()).toHaveText(["Best month for Lisbon beaches?"]);
  await expect(replyTexts()).toHaveText(["September, for the sea."]);
});
