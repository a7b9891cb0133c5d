// "Write as me" from the composer: the draft of the user's next message lands in the box for them to
// edit and send; nothing is posted until they do.
import { expect, test } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { startConversation } from "./pages/chat-page";

const fake = fakeProvidersForSpec();

test("write as me fills the composer with a draft in my voice; sending it is my choice", async ({ page }) => {
  const { chat } = await startConversation(page, "Ada", { emailPrefix: "ada-draft" });
  await chat.askScripted(fake, "Help me plan a trip to Lisbon.", "Happy to help plan Lisbon. Which dates?");

  await fake.clear();
  await fake.script({ kind: "text", text: "The 12th to the 16th of May, please." });
  await page.getByTestId("write-as-me").click();
  await expect(page.getByTestId("composer-input")).toHaveValue("The 12th to the 16th of May, please.");
  // Nothing was posted: still one message of mine.
  await expect(chat.messages("user")).toHaveCount(1);
  const [request] = await fake.requests();
  expect(request.body).toContain("Write Ada's next message in this conversation");

  // Edited and sent like any message.
  await page.getByTestId("composer-input").fill("The 12th to the 16th of May, with a river view.");
  await fake.script({ kind: "text", text: "Noted." });
  await page.getByTestId("composer-input").press("Enter");
  await expect(chat.messages("user")).toHaveCount(2);
  await expect(chat.messages("user").last().getByTestId("message-text")).toHaveText(
    "The 12th to the 16th of May, with a river view.",
  );
});
