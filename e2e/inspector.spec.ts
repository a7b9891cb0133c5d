// The prompt inspector, end to end against the fake providers: what it shows must equal what was recorded and
// what the provider received, byte for byte.
import { execFileSync } from "node:child_process";
import { expect, test } from "@playwright/test";
import { describePrefixStability, prefixStability } from "../lib/payload-diff";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { type ChatPage, startConversation } from "./pages/chat-page";

const FAKE_URL = `http://127.0.0.1:${process.env.E2E_FAKE_PORT ?? 4010}`;
const fake = fakeProvidersForSpec();

interface ApiItem {
  id: string;
  tag: string;
  role: string;
  tokens: number;
  parts: { type: string; text?: string }[];
}

async function turnsOf(chat: ChatPage, conversationId: string) {
  const { turns } = await chat.getJson<{
    turns: {
      assistantMessageId: string;
      attempts: { items: ApiItem[]; trace: { reason: string }[]; status: string }[];
    }[];
  }>(`/api/conversations/${conversationId}/turns`);
  return turns;
}

function textOf(item: ApiItem): string {
  return item.parts
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("\n");
}

test("a streamed reply's inspector shows the attempt's items, its usage and the exact body the provider received", async ({
  page,
}) => {
  const { chat, conversationId } = await startConversation(page, "Ada");
  await fake.script({
    kind: "text",
    text: "Hello **Ada**.\n\n```js\nconst answer = 42;\n```",
    chunks: 6,
    chunkDelayMs: 30,
    usage: { inputTokens: 120, cachedInputTokens: 64, outputTokens: 9 },
  });
  await chat.sendAndWait("Hi there, model!");
  const reply = chat.messages("assistant").last();
  await expect(reply.locator("strong")).toHaveText("Ada");
  await expect(reply.getByTestId("code-block")).toContainText("const answer = 42;");

  const panel = await chat.inspectReply();
  const [turn] = await turnsOf(chat, conversationId);
  const [attempt] = turn.attempts;
  expect(await panel.itemSummaries()).toEqual(
    attempt.items.map((item) => ({ id: item.id, tag: item.tag, role: item.role, text: textOf(item) })),
  );
  expect(attempt.items.map((item) => item.tag)).toEqual(["SYSTEM_PROMPT", "CURRENT_INPUT"]);
  await expect(panel.items().last().getByTestId("item-tokens")).toHaveText(`${attempt.items[1].tokens} tok`);

  await expect(panel.attemptTabs()).toHaveCount(1);
  await expect(panel.attemptTabs().first()).toHaveAttribute("data-status", "ok");
  await expect(panel.root.getByTestId("attempt-model")).toHaveText("openai:gpt-4.1-mini");
  for (const timing of ["timing-first-byte", "timing-first-token", "timing-done"]) {
    await expect(panel.root.getByTestId(timing)).toHaveText(/^\d+(\.\d+)? (ms|s)$/);
  }

  // The estimate beside the provider's own figures.
  const estimate = attempt.items.reduce((sum, item) => sum + item.tokens, 0);
  await expect(panel.root.getByTestId("estimate-total")).toHaveText(estimate.toLocaleString("en-US"));
  await expect(panel.root.getByTestId("usage-input")).toHaveText("120");
  await expect(panel.root.getByTestId("usage-cached")).toHaveText("(64 cached)");
  await expect(panel.root.getByTestId("usage-output")).toHaveText("9");
  await expect(panel.root.getByTestId("bar-segment")).toHaveCount(2);
  // The trace shown is the attempt's, event for event.
  await expect(panel.root.getByTestId("trace-reason")).toHaveText(attempt.trace.map((event) => event.reason));

  // The raw body is the provider's, byte for byte; pretty mode is the same JSON indented.
  const received = await fake.requests("openai-chat");
  expect(received).toHaveLength(1);
  expect(await panel.exactBody()).toBe(received[0].body);
  expect(await panel.prettyBody()).toBe(JSON.stringify(JSON.parse(received[0].body), null, 2));
  await expect(panel.root.getByTestId("raw-url")).toHaveText(`${FAKE_URL}/v1/chat/completions`);

  await panel.close();
});

test("a scripted 429 shows two attempt tabs: the first an error with its status, the second the reply", async ({
  page,
}) => {
  const { chat } = await startConversation(page, "Retry");
  await fake.script([
    { kind: "error", status: 429, retryAfterMs: 5 },
    { kind: "text", text: "Recovered after a 429." },
  ]);
  await chat.sendAndWait("Are you there?");
  await expect(chat.messages("assistant").getByTestId("message-text")).toHaveText("Recovered after a 429.");

  const panel = await chat.inspectReply();
  await expect(panel.attemptTabs()).toHaveCount(2);
  await expect(panel.attemptTabs().nth(0)).toHaveAttribute("data-status", "error");
  await expect(panel.attemptTabs().nth(0).getByTestId("attempt-tab-status")).toHaveText("error 429");
  await expect(panel.attemptTabs().nth(1)).toHaveAttribute("data-status", "ok");
  await expect(panel.attemptTabs().nth(1).getByTestId("attempt-tab-status")).toHaveText("ok");
  // The reply's own attempt is shown first; the failed one is a click away.
  await expect(panel.attemptTabs().nth(1)).toHaveAttribute("aria-selected", "true");
  await expect(panel.root.getByTestId("attempt-error")).toHaveCount(0);

  await panel.attemptTabs().nth(0).click();
  await expect(panel.root.getByTestId("attempt-status")).toHaveText("error");
  await expect(panel.root.getByTestId("attempt-error")).toContainText("429");
  await expect(panel.root.getByTestId("usage-provider")).toContainText("the attempt failed");
  const received = await fake.requests("openai-chat");
  expect(received).toHaveLength(2);
  expect(await panel.exactBody()).toBe(received[0].body);
  // Both attempts sent the same payload.
  expect(received[1].body).toBe(received[0].body);
});

test("after a second turn the diff marks the new items as added and gives the prefix-stability figure", async ({
  page,
}) => {
  const { chat, conversationId } = await startConversation(page, "Diff");
  await chat.askScripted(fake, "First question", "First answer.");
  await chat.askScripted(fake, "Second question", "Second answer.");

  const panel = await chat.inspectReply();
  await panel.showView("diff");
  const diff = panel.root.getByTestId("payload-diff");
  const turns = await turnsOf(chat, conversationId);
  const [first, second] = turns.map((turn) => turn.attempts[0].items);
  const added = second.filter((item) => !first.some((old) => old.id === item.id));
  expect(added.map(textOf)).toEqual(["First answer.", "Second question"]);

  const addedEntries = diff.locator('[data-testid="diff-entry"][data-change="added"]');
  await expect(addedEntries).toHaveCount(2);
  await expect(addedEntries.getByTestId("diff-entry-text")).toHaveText(["First answer.", "Second question"]);
  expect(
    await addedEntries.evaluateAll((entries) => entries.map((entry) => entry.getAttribute("data-item-id"))),
  ).toEqual(added.map((item) => item.id));
  // The first question is still sent, now as history instead of the current input.
  const changed = diff.locator('[data-testid="diff-entry"][data-change="changed"]');
  await expect(changed).toHaveCount(1);
  await expect(changed).toContainText("tag CURRENT_INPUT → DIALOGUE_HISTORY");
  await expect(diff.getByTestId("diff-count-removed")).toHaveAttribute("data-count", "0");

  const [firstBody, secondBody] = (await fake.requests("openai-chat")).map((request) => request.body);
  const stability = prefixStability(firstBody, secondBody);
  expect(stability.percent).toBeGreaterThan(50);
  await expect(diff.getByTestId("prefix-stability-text")).toHaveText(describePrefixStability(stability));
  await expect(diff.getByTestId("prefix-stability-text")).toHaveText(
    /^Prefix stable for [\d,]+ of [\d,]+ bytes \(\d+\.\d%\)$/,
  );
  await expect(diff.getByTestId("prefix-divergence")).toBeVisible();
  // Nothing before the new turn changed: the cache could serve all the first request had.
  await expect(diff.getByTestId("cache-miss")).toHaveText(
    "cache: nothing before the new turn changed since the previous request",
  );

  // The first reply has no earlier turn to compare with.
  await chat.messages("assistant").first().getByTestId("inspect-button").click();
  await panel.showView("diff");
  await expect(panel.root.getByTestId("payload-diff")).toHaveAttribute("data-empty", "true");
});

test("the preview's diff against the last turn: stored and freshly built items compare by value, not key order", async ({
  page,
}) => {
  const { chat } = await startConversation(page, "Same");
  await chat.sendAndWait("One");
  await chat.sendAndWait("Two");
  const panel = await chat.openPreview();
  await panel.showView("diff");
  const diff = panel.root.getByTestId("payload-diff");
  // System prompt, "One" and its reply are sent as before; "Two" is now history; the reply to it and the next
  // input are new. Nothing else changed, whatever key order the stored parts came back in.
  await expect(diff.getByTestId("diff-count-same")).toHaveAttribute("data-count", "3");
  await expect(diff.getByTestId("diff-count-changed")).toHaveAttribute("data-count", "1");
  await expect(diff.getByTestId("diff-count-added")).toHaveAttribute("data-count", "2");
  await expect(diff.getByTestId("diff-count-removed")).toHaveAttribute("data-count", "0");
  const changed = diff.locator('[data-testid="diff-entry"][data-change="changed"]');
  await expect(changed).toContainText("tag CURRENT_INPUT → DIALOGUE_HISTORY");
  await expect(changed).not.toContainText("content");
});

test("the preview moves the context note with its depth, highlights it from the trace, and saves nothing", async ({
  page,
}) => {
  const { chat, conversationId } = await startConversation(page, "Preview");
  await chat.sendAndWait("One");
  await chat.sendAndWait("Two");
  const panel = await chat.openPreview();
  const tags = async () => (await panel.itemSummaries()).map((item) => item.tag);
  // The two earlier turns: a user message and a reply each.
  const history = Array<string>(4).fill("DIALOGUE_HISTORY");
  await expect.poll(tags).toEqual(["SYSTEM_PROMPT", ...history, "CURRENT_INPUT"]);

  await panel.root.getByTestId("preview-note-text").fill("Mind the cat.");
  await panel.root.getByTestId("preview-note-depth").fill("0");
  await expect.poll(tags).toEqual(["SYSTEM_PROMPT", ...history, "CONTEXT_NOTE", "CURRENT_INPUT"]);
  const note = panel.root.locator('[data-testid="inspector-item"][data-tag="CONTEXT_NOTE"]');
  await expect(note.getByTestId("notice")).toHaveText("[System: Mind the cat.]");

  await panel.root.getByTestId("preview-note-depth").fill("1000");
  await expect.poll(tags).toEqual(["SYSTEM_PROMPT", "CONTEXT_NOTE", ...history, "CURRENT_INPUT"]);
  await expect(panel.root.getByTestId("payload-preview")).toHaveAttribute("data-state", "ready");

  // The note's trace event sits beside it: hovering it highlights the card it touched.
  const event = panel.root.locator('[data-testid="trace-event"][data-action="injected-note"]');
  await expect(event.getByTestId("trace-reason")).toContainText("depth 1000");
  await event.hover();
  await expect(note).toHaveAttribute("data-highlighted", "true");
  await expect(panel.root.locator('[data-testid="inspector-item"][data-highlighted]')).toHaveCount(1);

  // An out-of-range depth is refused with the server's message; the last good payload stays.
  await panel.root.getByTestId("preview-note-depth").fill("5000");
  await expect(panel.root.getByTestId("preview-error")).toHaveText(
    "settings.contextNote.depth: contextNote.depth must be a whole number from 0 to 1000",
  );
  await expect(panel.items()).toHaveCount(7);

  const stored = await (await page.request.get(`/api/conversations/${conversationId}`)).json();
  expect(stored.conversation.settingsOverride.contextNote?.text ?? "").toBe("");
  expect(await fake.requests()).toHaveLength(2);
});

test("copy as cURL replays the exact body: the provider receives it byte for byte", async ({ page }) => {
  const { chat } = await startConversation(page, "Curl");
  await fake.script({ kind: "text", text: 'Quotes: it\'s "fine".' });
  await chat.sendAndWait("Don't break on 'quotes', $dollars, `ticks` or \\backslashes\\ — ünïcødé 🙂");
  const [original] = await fake.requests("openai-chat");

  const panel = await chat.inspectReply();
  const command = await panel.curlCommand();
  // The URL is the one the request went to (the fake provider's); the key is a placeholder.
  expect(command).toContain("$OPENAI_API_KEY");
  expect(command).toContain(`'${FAKE_URL}/v1/chat/completions'`);
  expect(command).not.toContain("api.openai.com");

  await fake.clear();
  const runnable = command.replace("$OPENAI_API_KEY", "sk-dummy-e2e");
  const output = execFileSync("sh", ["-c", runnable], {
    env: { NODE_ENV: "test", PATH: process.env.PATH ?? "/usr/bin:/bin" },
  }).toString();
  expect(output).toContain("data:");
  const [replayed] = await fake.requests("openai-chat");
  expect(replayed.body).toBe(original.body);
  expect(replayed.path).toBe("/v1/chat/completions");
  expect(replayed.strippedHeaders).toContain("authorization");
});

test("a source link scrolls the transcript to its message and highlights it", async ({ page }) => {
  const { chat } = await startConversation(page, "Source");
  await chat.sendAndWait("Where did this come from?");
  await chat.sendAndWait("And this?");
  const panel = await chat.inspectReply();
  const firstUser = panel.root
    .locator('[data-testid="inspector-item"][data-role="user"]')
    .filter({ hasText: "Where did this come from?" });
  const link = firstUser.getByTestId("source-link");
  const messageId = await link.getAttribute("data-message-id");
  await link.click();
  const message = page.locator(`[data-testid="message"][data-message-id="${messageId}"]`);
  await expect(message).toHaveAttribute("data-highlighted", "true");
  await expect(message).toHaveText(/Where did this come from\?/);
  await expect(message).toBeInViewport();
});

test("a 100 000-token payload stays responsive: the item list is windowed and long texts are folded", async ({
  page,
}) => {
  const { chat, conversationId } = await startConversation(page, "Large");
  // 40 turns of 12 000 characters each, sent straight to the API (typing them would only slow the test).
  const filler = (turn: number) =>
    Array.from({ length: 2_000 }, (_, index) => `w${turn}x${index}`)
      .join(" ")
      .slice(0, 12_000);
  for (let turn = 0; turn < 40; turn += 1) {
    const response = await page.request.post("/api/chat", {
      data: { id: conversationId, message: { role: "user", parts: [{ type: "text", text: filler(turn) }] } },
    });
    expect(response.status()).toBe(200);
    await response.body();
  }
  await page.reload();
  const started = Date.now();
  const panel = await chat.inspectReply();
  const [attempt] = (await turnsOf(chat, conversationId)).at(-1)?.attempts ?? [];
  const total = attempt.items.reduce((sum, item) => sum + item.tokens, 0);
  expect(total).toBeGreaterThan(100_000);
  await expect(panel.root.getByTestId("estimate-total")).toHaveText(total.toLocaleString("en-US"));
  test.info().annotations.push({
    type: "inspector open",
    description: `${Date.now() - started} ms for ${attempt.items.length} items`,
  });

  // Only the cards near the viewport are in the DOM.
  const list = panel.root.getByTestId("inspector-items");
  await expect(list).toHaveAttribute("data-virtualised", "true");
  expect(attempt.items.length).toBeGreaterThanOrEqual(80);
  expect(await panel.items().count()).toBeLessThan(30);
  // Long texts are folded to a slice, with a toggle.
  const second = panel.items().nth(1);
  await expect(second.getByTestId("fold-toggle")).toHaveText("Show all · 12,000 chars");
  expect(((await second.getByTestId("item-text").textContent()) ?? "").length).toBeLessThan(1_000);

  // Scrolling to the end renders the last items, in order.
  const body = panel.root.getByTestId("inspector-body");
  const last = panel.root.locator('[data-testid="inspector-item"][data-tag="CURRENT_INPUT"]');
  // As a reader would: scroll to the end (rows measured on the way in refine the height) until it shows.
  await expect
    .poll(async () => {
      await body.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
      await page.waitForTimeout(100);
      if ((await last.count()) === 0) return "not rendered";
      return last.evaluate((card) => {
        const box = card.getBoundingClientRect();
        const view = (card.closest('[data-testid="inspector-body"]') as HTMLElement).getBoundingClientRect();
        return box.bottom > view.top && box.top < view.bottom ? "shown" : "out of view";
      });
    })
    .toBe("shown");
  await expect(last).toBeInViewport();
  await expect(last.getByTestId("item-position")).toHaveText(`#${attempt.items.length}`);
  await last.getByTestId("fold-toggle").click();
  await expect(last.getByTestId("item-text")).toContainText(filler(39).slice(-40));
});
