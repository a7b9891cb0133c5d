// Find attempts in the browser: after a rate-limited turn and a turn with a context note, the finder lists the
// calls newest first, filters them by status and by a tag that was sent, and opens one in the inspector on a page
// of its own, with its exact body and a way back to its conversation.
import { expect, test } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { ChatPage, uniqueEmail } from "./pages/chat-page";

const fake = fakeProvidersForSpec();

test("filter the calls across conversations and open one", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.register({ name: "Finn", email: uniqueEmail("finder"), password: "correct horse battery" });
  const id = await chat.newConversation();
  await fake.script([
    { kind: "error", status: 429, retryAfterMs: 50, message: "Rate limit reached" },
    { kind: "text", text: "Found you." },
  ]);
  await chat.sendAndWait("Where are the calls?");

  await page.getByTestId("attempts-link").click();
  await expect(page).toHaveURL(/\/attempts$/);
  const results = page.getByTestId("attempt-result");
  // The title (offline model) is a call too; the reply's two attempts are there, newest first.
  await expect(results.filter({ hasText: "reply" })).toHaveCount(2);
  await expect(results.filter({ hasText: "reply" }).first()).toHaveAttribute("data-status", "ok");

  await page.getByTestId("filter-status").selectOption("error");
  await page.getByTestId("filter-apply").click();
  await expect(page).toHaveURL(/status=error/);
  await expect(results).toHaveCount(1);
  await expect(results.first()).toHaveAttribute("data-status", "error");

  await page.getByTestId("filter-status").selectOption("");
  await page.getByTestId("filter-tag").selectOption("CONTEXT_NOTE");
  await page.getByTestId("filter-apply").click();
  await expect(page.getByTestId("attempt-finder-empty")).toBeVisible();

  await page.getByTestId("filter-tag").selectOption("");
  await page.getByTestId("filter-kind").selectOption("reply");
  await page.getByTestId("filter-apply").click();
  await expect(results).toHaveCount(2);
  await results.first().getByTestId("attempt-result-open").click();
  await expect(page.getByTestId("attempt-page")).toBeVisible();
  await expect(page.getByTestId("attempt-status")).toHaveText("ok");
  await page.getByTestId("tab-raw").click();
  await page.getByTestId("raw-mode-exact").click();
  const [, answered] = await fake.requests();
  expect(await page.getByTestId("raw-body").textContent()).toBe(answered?.body);
  await page.getByTestId("attempt-page-conversation").click();
  await expect(page).toHaveURL(new RegExp(`/chat/${id}$`));
});
