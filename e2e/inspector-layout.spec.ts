// The inspector beside the chat on a large screen: its width follows a drag of its edge (or the arrow keys on
// it), is remembered per user across reloads, and never squeezes the chat column below a readable width. Attempt
// tabs wrap, so the successful one stays in sight however many retries came first.
import { expect, test } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { ChatPage, uniqueEmail } from "./pages/chat-page";

const fake = fakeProvidersForSpec();
/** The chat column's floor beside the inspector (CHAT_MIN_WIDTH). */
const CHAT_MIN_WIDTH = 480;

test("the inspector's width is dragged, remembered per user, and the chat column stays readable", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const chat = new ChatPage(page);
  await chat.register({ name: "Wide", email: uniqueEmail("wide"), password: "correct horse battery" });
  await chat.newConversation();
  await chat.sendAndWait("Hello");
  const panel = await chat.inspectReply();
  const chatColumn = page.getByTestId("chat-view");
  const width = async () => (await panel.root.boundingBox())?.width ?? 0;
  const initial = await width();
  expect((await chatColumn.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(CHAT_MIN_WIDTH);

  // Drag the edge 200 px to the right: the panel narrows by as much.
  const handle = panel.root.getByTestId("inspector-resize");
  const box = await handle.boundingBox();
  if (!box) throw new Error("no resize handle");
  await page.mouse.move(box.x + box.width / 2, box.y + 300);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 100, box.y + 300, { steps: 4 });
  await page.mouse.move(box.x + box.width / 2 + 200, box.y + 300, { steps: 4 });
  await page.mouse.up();
  await expect.poll(width).toBeCloseTo(initial - 200, 0);
  const chosen = await width();

  // Remembered after a reload.
  await page.reload();
  await chat.inspectReply();
  await expect.poll(width).toBeCloseTo(chosen, 0);

  // Dragged far to the left, it stops where the chat column would become too narrow.
  const again = await handle.boundingBox();
  if (!again) throw new Error("no resize handle");
  await page.mouse.move(again.x + again.width / 2, again.y + 300);
  await page.mouse.down();
  await page.mouse.move(50, again.y + 300, { steps: 6 });
  await page.mouse.up();
  expect((await chatColumn.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(CHAT_MIN_WIDTH - 1);
  await expect(page.getByTestId("conversation-title")).toBeVisible();

  // The keyboard does the same on the focused handle.
  await handle.focus();
  const before = await width();
  await page.keyboard.press("ArrowRight");
  await expect.poll(width).toBeCloseTo(before - 32, 0);
  await expect(handle).toHaveAttribute("aria-valuenow", String(Math.round(before - 32)));

  // A narrower window shrinks the panel instead of the chat.
  await page.setViewportSize({ width: 1100, height: 900 });
  await expect
    .poll(async () => (await chatColumn.boundingBox())?.width ?? 0)
    .toBeGreaterThanOrEqual(CHAT_MIN_WIDTH - 1);
});

test("attempt tabs wrap: after many retries the successful attempt is in sight", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const chat = new ChatPage(page);
  await chat.register({ name: "Retries", email: uniqueEmail("retries"), password: "correct horse battery" });
  await chat.newConversation();
  // Two retries (the most one model gets), then the reply.
  await fake.script([
    { kind: "error", status: 503, retryAfterMs: 1 },
    { kind: "error", status: 429, retryAfterMs: 1 },
    { kind: "text", text: "Finally." },
  ]);
  await chat.sendAndWait("Are you there?");
  const panel = await chat.inspectReply();
  const tabs = panel.attemptTabs();
  const count = await tabs.count();
  expect(count).toBe(3);
  const ok = panel.root.locator('[data-testid="attempt-tab"][data-status="ok"]');
  await expect(ok).toBeInViewport({ ratio: 1 });
  // Narrow the panel as far as it goes: the tabs wrap onto more lines rather than hide.
  await panel.root.getByTestId("inspector-resize").focus();
  await page.keyboard.press("Home");
  for (let index = 0; index < count; index += 1) await expect(tabs.nth(index)).toBeInViewport({ ratio: 1 });
});
