// The inspector as a workbench: a turn that was rate-limited once shows both calls on a timeline (the failed one,
// the wait, the answered one, with its first byte and first token marked), and each call's cost next to the turn's
// and the conversation's, cached input priced as cached.
import { expect, test } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { startConversation } from "./pages/chat-page";

const fake = fakeProvidersForSpec();

test("a rate-limited turn: the timeline shows both calls, and the costs add up", async ({ page }) => {
  const { chat } = await startConversation(page, "Wren", { emailPrefix: "workbench" });
  // GPT-4.1 mini: $0.40 input, $0.10 cached input, $1.60 output per million tokens.
  await fake.script({ kind: "text", text: "Warm-up.", usage: { inputTokens: 1_000, outputTokens: 100 } });
  await chat.sendAndWait("First, a warm-up.");
  await fake.script([
    { kind: "error", status: 429, retryAfterMs: 300, message: "Rate limit reached" },
    {
      kind: "text",
      text: "Answered after a wait.",
      firstTokenDelayMs: 100,
      usage: { inputTokens: 1_000, cachedInputTokens: 800, outputTokens: 100 },
    },
  ]);
  await chat.sendAndWait("Now the real question.");

  const inspector = await chat.inspectReply();
  const rows = inspector.root.getByTestId("timeline-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute("data-status", "error");
  await expect(rows.nth(1)).toHaveAttribute("data-status", "ok");
  const failedEnd = Number(await rows.nth(0).getAttribute("data-end-ms"));
  const answeredStart = Number(await rows.nth(1).getAttribute("data-start-ms"));
  // The retry waited for retry-after-ms (300) after the failed call ended.
  expect(answeredStart - failedEnd).toBeGreaterThanOrEqual(250);
  await expect(rows.nth(1).getByTestId("timeline-first-token")).toHaveCount(1);
  await expect(rows.nth(1).getByTestId("timeline-first-byte")).toHaveCount(1);

  // 200 × $0.40 + 800 × $0.10 + 100 × $1.60, per million: $0.00032. The warm-up: $0.0004 + $0.00016.
  await expect(inspector.root.getByTestId("attempt-cost")).toHaveText("$0.00032");
  await expect(inspector.root.getByTestId("turn-cost")).toHaveText("$0.00032");
  await expect(inspector.root.getByTestId("conversation-cost")).toHaveText("$0.00088");

  // Clicking the failed call's bar opens that attempt.
  await rows.nth(0).click();
  await expect(inspector.root.getByTestId("attempt-status")).toHaveText("error");
  await expect(inspector.root.getByTestId("attempt-cost")).toHaveText("cost unknown");
});

test("system items the wire sends as one system message say so, part by part", async ({ page }) => {
  const { chat, conversationId: id } = await startConversation(page, "Wren", { emailPrefix: "system-merge" });
  // A context note with the system role: a second system item, after the persona's prompt.
  const patched = await page.request.patch(`/api/conversations/${id}`, {
    data: { settingsOverride: { contextNote: { text: "Answer in French.", depth: 0, role: "system" } } },
  });
  expect(patched.status()).toBe(200);
  await fake.script({ kind: "text", text: "Bien sûr." });
  await chat.sendAndWait("Say yes.");

  const inspector = await chat.inspectReply();
  const system = inspector
    .items()
    .filter({ has: page.locator('[data-testid="item-role"]', { hasText: /^system$/ }) });
  const count = await system.count();
  expect(count).toBeGreaterThanOrEqual(2);
  for (let index = 0; index < count; index += 1) {
    await expect(system.nth(index).getByTestId("item-system-merge")).toHaveText(
      `one system message · part ${index + 1} of ${count}`,
    );
  }
  // And the wire indeed carries one system message.
  const body = JSON.parse(await inspector.exactBody()) as { messages: { role: string }[] };
  expect(body.messages.filter((message) => message.role === "system")).toHaveLength(1);
});
