// Export and import in the browser: Ada downloads her conversation from the header's export menu, imports the
// file on the start screen and lands in a new conversation with the same messages, whose inspector shows the same
// exact body as the original's. A file that is not an archive gets a sentence, not a crash.
import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { ChatPage, uniqueEmail } from "./pages/chat-page";

const fake = fakeProvidersForSpec();

test("export a conversation, import the file, and continue from the same state", async ({
  page,
}, testInfo) => {
  const chat = new ChatPage(page);
  await chat.register({ name: "Ada", email: uniqueEmail("export"), password: "correct horse battery" });
  const originalId = await chat.newConversation();
  await fake.script({ kind: "text", text: "Lisbon, noted." });
  await chat.sendAndWait("Remember Lisbon for the trip.");
  const originalBody = await (await chat.inspectReply()).exactBody();

  await page.getByTestId("export-menu-button").click();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("export-json").click(),
  ]);
  expect(download.suggestedFilename()).toBe(`glassbox-${originalId}.json`);
  const file = testInfo.outputPath("conversation.json");
  await download.saveAs(file);
  const archive = JSON.parse(await readFile(file, "utf8"));
  expect(archive.messages.map((message: { authorType: string }) => message.authorType)).toEqual([
    "user",
    "persona",
  ]);

  await page.goto("/chat");
  await page.getByTestId("import-file").setInputFiles(file);
  await page.waitForURL(
    (url) => /\/chat\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(originalId),
  );
  await expect(chat.messages("user")).toHaveCount(1);
  await expect(chat.messages("user").first()).toContainText("Remember Lisbon for the trip.");
  await expect(chat.messages("assistant").last()).toContainText("Lisbon, noted.");
  expect(await (await chat.inspectReply()).exactBody()).toBe(originalBody);

  await page.goto("/chat");
  await page.getByTestId("import-file").setInputFiles({
    name: "notes.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify({ format: "something else" })),
  });
  await expect(page.getByTestId("import-error")).toContainText('format must be "glassbox.conversation"');
});
