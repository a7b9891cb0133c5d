// Memories under the user's control: a compacted conversation's summary becomes Ada's memory once she says so (the
// summary panel asks, once), the persona is sent it in her next conversation, and once she deletes it in
// Settings → Memories the next request the provider receives no longer carries it. She can turn them off again.
import { expect, test } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { startConversation } from "./pages/chat-page";

const fake = fakeProvidersForSpec();
const SUMMARY_TEXT = "SUMMARY: Ada is planning Lisbon in May and loves the old trams.";

test("Ada deletes her summary memory and the next request body lacks it", async ({ page }) => {
  const { chat, conversationId: first } = await startConversation(page, "Ada", {
    emailPrefix: "ada-memories",
  });
  // Keep only the newest user turn verbatim, so two turns are enough to summarise.
  await chat.overrideSettings(first, { summary: { keepRecentTurns: 1 } });
  await fake.script([
    { kind: "text", text: "Lisbon is lovely in May." },
    { kind: "text", text: "Tram 28 is the classic." },
  ]);
  await chat.seedTurns(first, ["First question: Lisbon in May?", "Second question: which tram?"]);
  await page.reload();

  // Compacting asks whether summaries may become memories; she keeps them, and the panel says this one is kept.
  await fake.script({ kind: "text", text: SUMMARY_TEXT });
  await chat.compactNow();
  await expect(page.getByTestId("compact-error")).toHaveCount(0);
  await chat.openSummary();
  await expect(page.getByTestId("summary-memory-note")).toHaveCount(0);
  await expect(page.getByTestId("summary-memory-question")).toContainText("Keep summaries as memories?");
  await page.getByTestId("summary-memory-keep").click();
  await expect(page.getByTestId("summary-memory-note")).toContainText("also kept as your memory");
  await expect(page.getByTestId("summary-memory-question")).toHaveCount(0);
  await page.keyboard.press("Escape");

  // Her next conversation with the persona is sent the memory.
  const second = await chat.newConversation();
  await fake.clear();
  await chat.askScripted(fake, "What do you remember about me?", "You are planning Lisbon.");
  expect((await fake.requests("openai-chat")).at(-1)?.body).toContain(SUMMARY_TEXT);

  // Settings → Memories: she sees it and deletes it.
  await page.goto("/chat");
  await page.getByTestId("memories-link").click();
  await expect(page).toHaveURL(/\/settings\/memories$/);
  const memory = page.getByTestId("memory");
  await expect(memory).toHaveCount(1);
  await expect(memory.getByTestId("memory-content")).toHaveText(SUMMARY_TEXT);
  await expect(memory).toHaveAttribute("data-area", "session_summary");
  await memory.getByTestId("delete-memory").click();
  await expect(page.getByTestId("no-memories")).toBeVisible();

  // The next request no longer carries it.
  await page.goto(`/chat/${second}`);
  await fake.clear();
  await chat.askScripted(fake, "And now, what do you remember?", "Nothing in particular.");
  const body = (await fake.requests("openai-chat")).at(-1)?.body ?? "";
  expect(body).toContain("And now, what do you remember?");
  expect(body).not.toContain(SUMMARY_TEXT);
  expect(body).not.toContain("Ada is planning Lisbon");

  // Summary memories can be turned off; the choice is kept.
  await page.goto("/settings/memories");
  const toggle = page.getByTestId("session-summaries-toggle");
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await page.reload();
  await expect(page.getByTestId("session-summaries-toggle")).not.toBeChecked();
});
