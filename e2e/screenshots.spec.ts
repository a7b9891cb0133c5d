// The README's screenshots, written by the e2e run so they always show the current UI: the chat, the inspector
// on the last reply of a short conversation, and the admin context policy page.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { fakeProviderClient } from "./fake-providers/client";
import { registerWithRole } from "./pages/admin-role";
import { ChatPage, uniqueEmail } from "./pages/chat-page";

const fake = fakeProviderClient(`http://127.0.0.1:${process.env.E2E_FAKE_PORT ?? 4010}`);
const docs = path.join(process.cwd(), "docs");

test.beforeEach(async ({ page }) => {
  await fake.reset();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: "light" });
  await page.addInitScript(() => localStorage.setItem("theme", "light"));
  mkdirSync(docs, { recursive: true });
});

async function shoot(page: Page, name: string) {
  // No focus ring, caret or hover state in the picture.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(docs, name), animations: "disabled", caret: "hide" });
}

test("README screenshots: the chat, then the inspector on its last reply", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.register({ name: "Grace", email: uniqueEmail("grace"), password: "correct horse battery" });
  const conversationId = await chat.newConversation();
  const patch = await page.request.patch(`/api/conversations/${conversationId}`, {
    data: {
      title: "Packing for Lisbon",
      instructions: "Answer as a seasoned travel planner. Prefer short lists.",
      settingsOverride: { contextNote: { text: "The user travels with carry-on luggage only.", depth: 2 } },
    },
  });
  expect(patch.status()).toBe(200);
  await page.reload();

  const replies = [
    "Lisbon in **May** is mild: expect 17–24 °C with the odd shower.\n\n- Light layers\n- A packable rain jacket\n- Comfortable walking shoes (the hills are steep)",
    "For a carry-on only trip, plan around **one pair of shoes** you can walk in all day, plus sandals.\n\n```text\nshoes: 1 walking pair + sandals\ntops: 4 · bottoms: 2 · layers: 1\n```",
    "Yes: trams **28** and **12** cover the old town. Buy a *Viva Viagem* card and load it with zapping credit.",
  ];
  const questions = [
    "What's the weather like in Lisbon in May?",
    "What shoes should I bring?",
    "Is public transport easy for sightseeing?",
  ];
  for (const [index, question] of questions.entries()) {
    await fake.script({
      kind: "text",
      text: replies[index],
      usage: { cachedInputTokens: index === 0 ? 0 : 128 },
    });
    await chat.sendAndWait(question);
  }
  await expect(page.getByTestId("conversation-title")).toHaveText("Packing for Lisbon");
  await expect(chat.messages("assistant")).toHaveCount(3);
  await shoot(page, "chat.png");

  const panel = await chat.inspectReply();
  // System prompt, instructions, four history items, the note at depth 2 and the current input.
  await expect(panel.items()).toHaveCount(8);
  await expect(panel.root.locator('[data-testid="inspector-item"][data-tag="CONTEXT_NOTE"]')).toHaveCount(1);
  await expect(panel.root.getByTestId("token-bar")).toBeVisible();
  await expect(panel.root.getByTestId("trace-event").first()).toBeVisible();
  // Beside the open inspector the title is still readable, not cut to "Packing…".
  const title = page.getByTestId("conversation-title");
  expect(await title.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  await shoot(page, "inspector.png");
});

test("README screenshot: the admin context policy page", async ({ page }) => {
  await registerWithRole(page, "Ada", "admin");
  await page.goto("/admin/settings");
  await expect(page.getByTestId("policy-version")).toBeVisible();
  await expect(page.getByTestId("field-history.messageFetchLimit")).toContainText("Messages loaded per turn");
  await shoot(page, "admin-policy.png");
});
