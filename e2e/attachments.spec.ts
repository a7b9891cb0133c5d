// Images in the chat, end to end: a person attaches a PNG with the image button, sends it with a
// question, sees it in the transcript (and again after a reload), and the provider receives it as image input;
// a file that is not an image is refused in the composer with the server's reason, and nothing is sent.
import { expect, type Page, test } from "@playwright/test";
import { TEST_IMAGES } from "../tests/fixtures/images";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { ChatPage, uniqueEmail } from "./pages/chat-page";

const fake = fakeProvidersForSpec();

async function startChat(page: Page) {
  const chat = new ChatPage(page);
  await chat.register({ name: "Ada", email: uniqueEmail("ada-images"), password: "correct horse battery" });
  const conversationId = await chat.newConversation();
  return { chat, conversationId };
}

test("attach a PNG, send it with a question: shown in the transcript, sent to the model as an image", async ({
  page,
}) => {
  const { chat } = await startChat(page);
  const png = TEST_IMAGES.png;
  await fake.script({ kind: "text", text: "A small red square." });

  await page
    .getByTestId("attach-input")
    .setInputFiles({ name: "square.png", mimeType: "image/png", buffer: png });
  const chip = page.getByTestId("composer-attachment");
  await expect(chip).toHaveAttribute("data-state", "ready");
  await expect(chip).toContainText("square.png");
  await chat.sendAndWait("What is in this picture?");

  // The transcript shows the image above the question, decoded by the browser.
  const sent = chat.messages("user").last();
  await expect(sent.getByTestId("message-text")).toHaveText("What is in this picture?");
  const image = sent.getByTestId("message-image").locator("img");
  await expect(image).toHaveCount(1);
  await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(3);
  await expect(page.getByTestId("composer-attachment")).toHaveCount(0);

  // The provider received the image bytes as image input beside the question.
  const [request] = await fake.requests();
  const body = request.body as string;
  expect(body).toContain(`data:image/png;base64,${png.toString("base64")}`);
  expect(body).toContain("What is in this picture?");

  // After a reload the stored transcript still shows it.
  await page.reload();
  await expect(chat.messages("user").last().getByTestId("message-image").locator("img")).toHaveCount(1);
});

test("a file that is not an image is refused in the composer, with the server's reason", async ({ page }) => {
  await startChat(page);
  await page.getByTestId("attach-input").setInputFiles({
    name: "drawing.svg",
    mimeType: "image/svg+xml",
    buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>'),
  });
  const chip = page.getByTestId("composer-attachment");
  await expect(chip).toHaveAttribute("data-state", "failed");
  await expect(chip.getByTestId("attachment-error")).toContainText(/PNG/);
  // Nothing to send yet: the refused file does not count.
  await expect(page.getByTestId("send-button")).toBeDisabled();
  await chip.getByTestId("remove-attachment").click();
  await expect(page.getByTestId("composer-attachment")).toHaveCount(0);
});
