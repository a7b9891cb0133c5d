// Summarisation end to end: "Compact now" marks the older turns with a divider, the summary panel shows
// what the summary covers, the next payload carries it as a SUMMARY item (with the trace saying so), an edit
// changes that item, and a revert brings the messages back verbatim. The summariser is the persona's model, here
// the fake OpenAI server, answering a non-streaming call with a scripted text.
import { expect, type Page, test } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { type ChatPage, startConversation } from "./pages/chat-page";

const fake = fakeProvidersForSpec();

const QUESTIONS = [
  "First question",
  "Second question",
  "Third question",
  "Fourth question",
  "Fifth question",
  "Sixth question",
];
const ANSWERS = [
  "Answer one.",
  "Answer two.",
  "Answer three.",
  "Answer four.",
  "Answer five.",
  "Answer six.",
];
const SUMMARY_TEXT = "SUMMARY: the user asked five numbered questions and got five numbered answers.";
const EDITED_TEXT = "SUMMARY (edited): five questions, five answers; the user prefers short replies.";

interface StoredMessage {
  id: string;
  seq: number;
  authorType: string;
  summarizedBy: string | null;
}

interface ApiSummary {
  id: string;
  content: string;
  coversThroughSeq: number;
  messageCount: number;
  modelId: string | null;
  trigger: string;
  state: string;
}

async function startChat(page: Page, name: string) {
  const { chat, conversationId } = await startConversation(page, name);
  // Keep only the newest user turn verbatim, so a handful of turns is enough to summarise.
  await chat.overrideSettings(conversationId, { summary: { keepRecentTurns: 1 } });
  return { chat, conversationId };
}

async function storedMessages(chat: ChatPage, conversationId: string): Promise<StoredMessage[]> {
  return (await chat.getJson<{ messages: StoredMessage[] }>(`/api/conversations/${conversationId}/messages`))
    .messages;
}

async function storedSummaries(chat: ChatPage, conversationId: string): Promise<ApiSummary[]> {
  return (await chat.getJson<{ summaries: ApiSummary[] }>(`/api/conversations/${conversationId}/summaries`))
    .summaries;
}

test("compact now: divider after the right message, the summary panel, the SUMMARY item and its trace, edit, revert", async ({
  page,
}) => {
  const { chat, conversationId } = await startChat(page, "Compact");
  await fake.script(ANSWERS.map((text) => ({ kind: "text" as const, text })));
  await chat.seedTurns(conversationId, QUESTIONS);
  await page.reload();
  await expect(chat.messages("assistant")).toHaveCount(6);
  await expect(chat.summaryDivider()).toHaveCount(0);
  await expect(chat.summarizedMessages()).toHaveCount(0);

  // Compact: the fake answers the summariser's (non-streaming) call.
  await fake.clear();
  await fake.script({ kind: "text", text: SUMMARY_TEXT });
  await chat.compactNow();
  await expect(page.getByTestId("compact-error")).toHaveCount(0);
  const [summaryCall] = await fake.requests("openai-chat");
  expect(JSON.parse(summaryCall.body).stream ?? false).toBe(false);
  expect(summaryCall.body).toContain("Fifth question");
  expect(summaryCall.body).not.toContain("Sixth question");

  // Everything before the last user turn is covered: five turns, ten messages, through "Answer five.".
  const stored = await storedMessages(chat, conversationId);
  const [summary] = await storedSummaries(chat, conversationId);
  const fifthAnswer = stored[9];
  expect(summary).toMatchObject({
    content: SUMMARY_TEXT,
    coversThroughSeq: fifthAnswer.seq,
    messageCount: 10,
    modelId: "openai:gpt-4.1-mini",
    trigger: "manual",
    state: "active",
  });
  expect(stored.map((message) => message.summarizedBy)).toEqual([...Array(10).fill(summary.id), null, null]);

  // The transcript keeps every message; the divider sits right after the last covered one, which is muted.
  await expect(chat.messages("user")).toHaveCount(6);
  await expect(chat.messages("assistant")).toHaveCount(6);
  const divider = chat.summaryDivider();
  await expect(divider).toHaveCount(1);
  await expect(divider).toHaveAttribute("data-after-message-id", fifthAnswer.id);
  await expect(divider.getByTestId("summary-divider-text")).toHaveText(
    "Earlier messages are summarised: the model now sees them only as a summary",
  );
  const beforeDivider = divider.locator("xpath=preceding-sibling::*[1]");
  await expect(beforeDivider).toHaveAttribute("data-message-id", fifthAnswer.id);
  await expect(beforeDivider.getByTestId("message-text")).toHaveText("Answer five.");
  const afterDivider = divider.locator("xpath=following-sibling::*[1]");
  await expect(afterDivider.getByTestId("message-text")).toHaveText("Sixth question");
  await expect(chat.summarizedMessages()).toHaveCount(10);
  await expect(chat.summarizedMessages().getByTestId("message-text")).toHaveText(
    QUESTIONS.slice(0, 5).flatMap((question, index) => [question, ANSWERS[index]]),
  );

  // The panel: the content and what it covers.
  let panel = await chat.openSummary();
  await expect(panel.content()).toHaveText(SUMMARY_TEXT);
  await expect(panel.root.getByTestId("summary-message-count")).toHaveText("10 messages");
  await expect(panel.root.getByTestId("summary-through")).toHaveText(
    `#${fifthAnswer.seq} · Glassbox Guide: “Answer five.”`,
  );
  await expect(panel.root.getByTestId("summary-trigger")).toHaveText("Compact now");
  await expect(panel.root.getByTestId("summary-model")).toHaveText("openai:gpt-4.1-mini");
  await expect(panel.root.getByTestId("summary-created")).not.toBeEmpty();
  await expect(panel.historyItems()).toHaveCount(0);
  await panel.close();

  // The next turn sends the summary right after the system items, then only the kept turn and the new message.
  await chat.askScripted(fake, "Seventh question", "Answer seven.");
  const inspector = await chat.inspectReply();
  const items = await inspector.itemSummaries();
  const firstNonSystem = items.findIndex((item) => item.role !== "system");
  expect(firstNonSystem).toBeGreaterThan(0);
  expect(items[firstNonSystem]).toMatchObject({ tag: "SUMMARY", role: "user" });
  expect(items[firstNonSystem].text).toContain(SUMMARY_TEXT);
  expect(items[firstNonSystem].text).toContain("(10 messages condensed)");
  expect(items.slice(firstNonSystem + 1).map((item) => item.text)).toEqual([
    "Sixth question",
    "Answer six.",
    "Seventh question",
  ]);
  // The trace says what the summary covers, in the trace panel and on the SUMMARY card itself.
  const coverage = `summary covers messages through #${fifthAnswer.seq} (10 messages condensed)`;
  await expect(
    inspector.root.locator('[data-testid="trace-event"][data-stage="summary"]').getByTestId("trace-reason"),
  ).toHaveText([coverage]);
  const summaryCard = inspector.root.locator('[data-testid="inspector-item"][data-tag="SUMMARY"]');
  await expect(summaryCard.getByTestId("item-trace-chip")).toHaveText("Summary placement: placed-summary");
  await expect(summaryCard.getByTestId("item-trace-chip")).toHaveAttribute("title", coverage);
  await inspector.close();
  // The new turn is after the divider, which stays where it was.
  await expect(chat.summaryDivider()).toHaveAttribute("data-after-message-id", fifthAnswer.id);

  // Edit: the next preview's SUMMARY item says the edited text.
  panel = await chat.openSummary();
  await panel.edit(EDITED_TEXT);
  expect((await storedSummaries(chat, conversationId))[0].content).toBe(EDITED_TEXT);
  await panel.close();
  let preview = await chat.openPreview();
  const previewSummary = preview.root.locator('[data-testid="inspector-item"][data-tag="SUMMARY"]');
  await expect(previewSummary.getByTestId("item-text")).toContainText(EDITED_TEXT);
  await expect(previewSummary.getByTestId("item-text")).not.toContainText(SUMMARY_TEXT);
  await preview.close();

  // Revert, after a confirm: no summary is active, the history lists the reverted one, the divider is gone.
  panel = await chat.openSummary();
  await panel.root.getByTestId("summary-revert").click();
  await expect(panel.root.getByTestId("summary-revert-consequence")).toHaveText(
    "No summary will be active: the model sees the messages it covered verbatim again.",
  );
  await panel.root.getByTestId("summary-revert-cancel").click();
  await expect(panel.content()).toHaveText(EDITED_TEXT);
  await panel.revert();
  await expect(panel.root.getByTestId("summary-none")).toBeVisible();
  await expect(panel.historyItems()).toHaveCount(1);
  await expect(panel.historyItems()).toHaveAttribute("data-state", "reverted");
  await expect(panel.historyItems().getByTestId("summary-history-content")).toHaveText(EDITED_TEXT);
  await panel.close();
  await expect(chat.summaryDivider()).toHaveCount(0);
  await expect(chat.summarizedMessages()).toHaveCount(0);
  expect((await storedMessages(chat, conversationId)).every((message) => message.summarizedBy === null)).toBe(
    true,
  );

  // The next preview has no SUMMARY item: the old turns are back verbatim.
  preview = await chat.openPreview();
  await expect(preview.root.getByTestId("payload-preview")).toHaveAttribute("data-state", "ready");
  const previewItems = await preview.itemSummaries();
  expect(previewItems.map((item) => item.tag)).not.toContain("SUMMARY");
  expect(previewItems.map((item) => item.text)).toContain("First question");
});

test("compact now shows the server's message in place: nothing to summarise yet (information), a failed summariser (422)", async ({
  page,
}) => {
  const { chat, conversationId } = await startChat(page, "Refused");
  // A single turn: the kept turn is all there is.
  await chat.askScripted(fake, "Only question", "Only answer.");
  await chat.compactNow();
  await expect(page.getByTestId("compact-note-message")).toHaveText(/^Nothing to summarise yet: .+\.$/);
  await expect(page.getByTestId("compact-error")).toHaveCount(0);
  await expect(page.getByTestId("compact-now")).toHaveAttribute("data-state", "idle");
  await page.getByTestId("compact-note-dismiss").click();
  await expect(page.getByTestId("compact-note")).toHaveCount(0);

  // Two turns, and the summariser fails: the 422's message, and nothing changed.
  await chat.askScripted(fake, "Second question", "Second answer.");
  // A 500 is retried like any model call: every one of the three tries gets it.
  const exploded = { kind: "error", status: 500, message: "summariser exploded" } as const;
  await fake.script([exploded, exploded, exploded]);
  await chat.compactNow();
  await expect(page.getByTestId("compact-error-message")).toHaveText(
    /^The summary could not be made: .+\. Nothing was changed\.$/,
  );
  await expect(chat.summaryDivider()).toHaveCount(0);
  await expect(chat.summarizedMessages()).toHaveCount(0);
  expect(await storedSummaries(chat, conversationId)).toEqual([]);

  // Trying again clears the error; this time it works and the first turn is marked.
  await fake.script({ kind: "text", text: "SUMMARY: one question, one answer." });
  await chat.compactNow();
  await expect(page.getByTestId("compact-error")).toHaveCount(0);
  await expect(chat.summarizedMessages().getByTestId("message-text")).toHaveText([
    "Only question",
    "Only answer.",
  ]);
  await expect(chat.summaryDivider()).toHaveAttribute(
    "data-after-message-id",
    (await storedMessages(chat, conversationId))[1].id,
  );
});

test("a chained summary lists its predecessor; reverting it restores that one and moves the divider back", async ({
  page,
}) => {
  const { chat, conversationId } = await startChat(page, "Chain");
  await fake.script(ANSWERS.slice(0, 3).map((text) => ({ kind: "text" as const, text })));
  await chat.seedTurns(conversationId, QUESTIONS.slice(0, 3));
  await page.reload();
  await fake.script({ kind: "text", text: "SUMMARY: two questions." });
  await chat.compactNow();
  const firstBoundary = (await storedMessages(chat, conversationId))[3];
  await expect(chat.summaryDivider()).toHaveAttribute("data-after-message-id", firstBoundary.id);

  // Two more turns through the UI, then a second summary that covers the first one.
  for (const index of [3, 4]) {
    await chat.askScripted(fake, QUESTIONS[index], ANSWERS[index]);
  }
  await fake.clear();
  await fake.script({ kind: "text", text: "SUMMARY: four questions." });
  await chat.compactNow();
  const [chainedCall] = await fake.requests("openai-chat");
  // The previous summary goes into the summariser's input, so summaries chain.
  expect(chainedCall.body).toContain("SUMMARY: two questions.");
  const secondBoundary = (await storedMessages(chat, conversationId))[7];
  await expect(chat.summaryDivider()).toHaveAttribute("data-after-message-id", secondBoundary.id);
  await expect(chat.summarizedMessages()).toHaveCount(8);

  const panel = await chat.openSummary();
  await expect(panel.content()).toHaveText("SUMMARY: four questions.");
  await expect(panel.historyItems()).toHaveCount(1);
  await expect(panel.historyItems()).toHaveAttribute("data-state", "superseded");
  await panel.root.getByTestId("summary-revert").click();
  await expect(panel.root.getByTestId("summary-revert-consequence")).toHaveText(
    `The previous summary (4 messages, through #${firstBoundary.seq}) becomes active again; the messages after it are sent verbatim.`,
  );
  await panel.root.getByTestId("summary-revert-confirm").click();
  await expect(panel.content()).toHaveText("SUMMARY: two questions.");
  await expect(panel.historyItems()).toHaveCount(1);
  await expect(panel.historyItems()).toHaveAttribute("data-state", "reverted");
  await panel.close();
  await expect(chat.summaryDivider()).toHaveAttribute("data-after-message-id", firstBoundary.id);
  await expect(chat.summarizedMessages()).toHaveCount(4);

  const preview = await chat.openPreview();
  await expect(preview.root.getByTestId("payload-preview")).toHaveAttribute("data-state", "ready");
  const summaryItem = preview.root.locator('[data-testid="inspector-item"][data-tag="SUMMARY"]');
  await expect(summaryItem.getByTestId("item-text")).toContainText("SUMMARY: two questions.");
});
