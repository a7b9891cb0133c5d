// The chat UI around the inspector: sidebar search, rename and delete; persona picker; theme; the composer's
// keys; streaming with stop; errors in place with retry; regenerate; auto-scroll that respects the reader;
// safe markdown; the owner's settings; and a phone-sized screen.
import { expect, type Page, test } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { signUp, startConversation } from "./pages/chat-page";

const fake = fakeProvidersForSpec();

async function createTitled(page: Page, title: string): Promise<string> {
  const response = await page.request.post("/api/conversations", { data: { title } });
  expect(response.status()).toBe(201);
  return (await response.json()).id;
}

test("sidebar: search by title, rename inline, delete after a confirm", async ({ page }) => {
  const { chat } = await signUp(page, "Sidebar");
  const lisbon = await createTitled(page, "Trip to Lisbon");
  const recipes = await createTitled(page, "Weeknight recipes");
  const packing = await createTitled(page, "Lisbon packing list");
  await page.goto("/chat");
  await expect(chat.conversationItems()).toHaveCount(3);

  await chat.searchConversations("lisbon");
  await expect(chat.conversationItems().getByTestId("conversation-link")).toHaveText([
    "Lisbon packing list",
    "Trip to Lisbon",
  ]);
  await chat.searchConversations("no such title");
  await expect(chat.conversationItems()).toHaveCount(0);
  await expect(page.getByTestId("conversation-list-empty")).toContainText("no such title");
  await chat.searchConversations("");
  await expect(chat.conversationItems()).toHaveCount(3);

  // Rename: Enter saves; Escape abandons.
  await chat.renameConversation(recipes, "Dinner ideas");
  const renamed = await (await page.request.get(`/api/conversations/${recipes}`)).json();
  expect(renamed.conversation.title).toBe("Dinner ideas");
  await chat.conversationItem(lisbon).hover();
  await chat.conversationItem(lisbon).getByTestId("rename-conversation").click();
  await page.getByTestId("rename-input").fill("Not saved");
  await page.getByTestId("rename-input").press("Escape");
  await expect(chat.conversationItem(lisbon).getByTestId("conversation-link")).toHaveText("Trip to Lisbon");
  await chat.searchConversations("dinner");
  await expect(chat.conversationItems().getByTestId("conversation-link")).toHaveText(["Dinner ideas"]);
  await chat.searchConversations("");

  // Delete asks first; cancelling keeps it.
  await page.goto(`/chat/${packing}`);
  await chat.conversationItem(packing).hover();
  await chat.conversationItem(packing).getByTestId("delete-conversation").click();
  await expect(page.getByTestId("confirm-delete")).toContainText("Lisbon packing list");
  await page.getByTestId("confirm-delete-cancel").click();
  await expect(chat.conversationItem(packing)).toHaveCount(1);
  await chat.deleteConversation(packing);
  await expect(page).toHaveURL(/\/chat$/);
  expect((await page.request.get(`/api/conversations/${packing}`)).status()).toBe(404);
  await expect(chat.conversationItems()).toHaveCount(2);
});

test("the start screen preselects the default persona and starts a conversation with it", async ({
  page,
}) => {
  const { chat } = await signUp(page, "Picker");
  const options = page.getByTestId("persona-option");
  await expect(options.first()).toHaveAttribute("data-selected", "true");
  const personaName = await options.first().getAttribute("data-persona-name");
  await chat.newConversation();
  await expect(page.getByTestId("conversation-title")).toHaveText("New conversation");
  await expect(page.getByTestId("chat-view")).toContainText(personaName as string);
  await expect(page.getByTestId("model-id")).toHaveText("openai:gpt-4.1-mini");
});

test("the theme toggle switches light and dark and remembers the choice", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await signUp(page, "Theme");
  const html = page.locator("html");
  await expect(html).not.toHaveClass(/dark/);
  await page.getByTestId("theme-toggle").click();
  await expect(html).toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");
  await page.reload();
  await expect(html).toHaveClass(/dark/);
  await expect(page.getByTestId("theme-toggle")).toHaveAttribute("data-theme", "dark");
  await page.getByTestId("theme-toggle").click();
  await expect(html).not.toHaveClass(/dark/);
  await page.reload();
  await expect(html).not.toHaveClass(/dark/);
});

test("Enter sends and Shift+Enter adds a line; the provider receives both lines", async ({ page }) => {
  const { chat } = await startConversation(page, "Keys");
  const input = page.getByTestId("composer-input");
  await input.click();
  await page.keyboard.type("line one");
  await page.keyboard.press("Shift+Enter");
  await page.keyboard.type("line two");
  await expect(input).toHaveValue("line one\nline two");
  await expect(chat.messages("user")).toHaveCount(0);
  await page.keyboard.press("Enter");
  await expect(chat.messages("user").getByTestId("message-text")).toHaveText("line one\nline two", {
    useInnerText: true,
  });
  await chat.waitUntilReady();
  await expect(input).toHaveValue("");
  const [received] = await fake.requests("openai-chat");
  expect(JSON.parse(received.body).messages.at(-1)).toEqual({ role: "user", content: "line one\nline two" });
});

test("a live event of a reply's earlier state that arrives after it ended does not hold the next message", async ({
  page,
}) => {
  const { chat, conversationId } = await startConversation(page, "Late");
  await chat.askScripted(fake, "First question", "The whole first answer.");
  const replyId = await chat.messages("assistant").first().getAttribute("data-message-id");
  const stored = await page.request.get(`/api/conversations/${conversationId}/messages`);
  const reply = (
    (await stored.json()).messages as { id: string; seq: number; replyToMessageId: string }[]
  ).find((message) => message.id === replyId);
  expect(reply).toBeDefined();
  // The page reloads with the reply stored complete; its live events then bring, late, the reply as it was
  // mid-stream (an event is published after its write, so a reader can get it after a newer read).
  let delivered = false;
  await page.route(`**/api/conversations/${conversationId}/events*`, async (route) => {
    if (delivered) return route.continue();
    delivered = true;
    const stale = {
      type: "message",
      message: {
        id: replyId,
        role: "assistant",
        parts: [{ type: "text", text: "The whole" }],
        metadata: { status: "streaming", seq: reply?.seq, replyToMessageId: reply?.replyToMessageId },
      },
      clientMessageId: null,
    };
    await route.fulfill({
      status: 200,
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
      body: `data: ${JSON.stringify(stale)}\n\n`,
    });
  });
  await page.reload();
  await expect.poll(() => delivered).toBe(true);
  await expect(chat.messages("assistant").first().getByTestId("message-text")).toHaveText(
    "The whole first answer.",
  );
  await expect(page.getByTestId("send-button")).toBeAttached();
  await expect(page.getByTestId("stop-button")).toHaveCount(0);

  await fake.script({ kind: "text", text: "The second answer." });
  await chat.send("Second question");
  await expect(chat.messages("user")).toHaveCount(2);
  await expect(page.getByTestId("composer-input")).toHaveValue("");
  await expect(chat.messages("assistant").last().getByTestId("message-text")).toHaveText(
    "The second answer.",
  );
});

test("stop aborts the provider call, keeps exactly what was shown, and the next turn sends that text", async ({
  page,
}) => {
  const { chat } = await startConversation(page, "Stop");
  const words = Array.from({ length: 60 }, (_, index) => `word${index}`).join(" ");
  await fake.script({ kind: "text", text: words, chunks: 60, chunkDelayMs: 100 });
  await chat.send("Count slowly");
  await expect(page.getByTestId("stop-button")).toBeVisible();
  await expect(chat.messages("assistant").getByTestId("message-text")).toContainText("word14");
  const clickedAt = Date.now();
  await page.getByTestId("stop-button").click();
  await chat.waitUntilReady();
  await expect(page.getByTestId("send-button")).toBeVisible();
  await expect(chat.messages("assistant").getByTestId("stopped-chip")).toBeVisible();
  const shown = (await chat.messages("assistant").getByTestId("message-text").textContent()) ?? "";
  expect(shown.length).toBeLessThan(words.length);
  expect(words.startsWith(shown.trim())).toBe(true);

  // The provider's connection was closed at once: it stops generating (and billing).
  const [request] = await fake.requests("openai-chat");
  expect(request.closedByClientAt).not.toBeNull();
  expect((request.closedByClientAt ?? 0) - clickedAt).toBeLessThan(1_000);

  // Once the server has stored the reply as stopped (nothing writes to it after that), a reload shows the same
  // stopped text, not the rest of the generation.
  const conversationId = new URL(page.url()).pathname.split("/").at(-1);
  await expect
    .poll(async () => {
      const response = await page.request.get(`/api/conversations/${conversationId}/messages`);
      const { messages } = (await response.json()) as { messages: { authorType: string; status: string }[] };
      return messages.map((message) => [message.authorType, message.status]);
    })
    .toEqual([
      ["user", "complete"],
      ["persona", "stopped"],
    ]);
  await page.reload();
  await expect(chat.messages("assistant").getByTestId("stopped-chip")).toBeVisible();
  await expect(chat.messages("assistant").getByTestId("message-text")).toHaveText(shown);

  // The next turn sends the model exactly the text the user saw.
  await chat.askScripted(fake, "Why did you stop?", "Understood.");
  const [, next] = await fake.requests("openai-chat");
  const sent = JSON.parse(next.body).messages as { role: string; content: string }[];
  // (Markdown drops the trailing space of the last word shown; the stored text keeps it.)
  expect(
    sent.filter((message) => message.role === "assistant").map((message) => message.content.trimEnd()),
  ).toEqual([shown.trim()]);
});

test("a failed reply says so in place; Retry replaces it with a new reply to the same message", async ({
  page,
}) => {
  const { chat } = await startConversation(page, "Errors");
  await fake.script({ kind: "error", status: 500, message: "upstream exploded", times: 3 });
  await chat.send("Will this work?");
  await expect(chat.messages("assistant").getByTestId("message-failed")).toBeVisible();
  await expect(chat.messages("assistant")).toHaveCount(1);

  // Its inspector shows every attempt that failed.
  const panel = await chat.inspectReply();
  await expect(panel.attemptTabs()).toHaveCount(3);
  await expect(panel.root.locator('[data-testid="attempt-tab"][data-status="error"]')).toHaveCount(3);
  await panel.close();

  await fake.script({ kind: "text", text: "Now it works." });
  await chat.messages("assistant").getByTestId("retry-reply").click();
  await expect(chat.messages("assistant").getByTestId("message-text")).toHaveText("Now it works.");
  await chat.waitUntilReady();
  // One user message, one reply: the failed reply was replaced, and the model got the question once.
  await expect(chat.messages("user").getByTestId("message-text")).toHaveText(["Will this work?"]);
  await expect(chat.messages("assistant")).toHaveCount(1);
  await page.reload();
  await expect(chat.messages("assistant").getByTestId("message-text")).toHaveText("Now it works.");
  await expect(chat.messages("assistant").getByTestId("variant-pager")).toHaveCount(0);
  const requests = await fake.requests("openai-chat");
  const last = JSON.parse(requests.at(-1)?.body ?? "{}").messages as { role: string; content: string }[];
  expect(last.filter((message) => message.content === "Will this work?")).toHaveLength(1);
});

test("regenerate makes variants of the same reply; flipping chooses what later turns send", async ({
  page,
}) => {
  const { chat } = await startConversation(page, "Again");
  await chat.askScripted(fake, "Tell me a fact", "First take.");
  await expect(chat.messages("assistant").getByTestId("regenerate-button")).toHaveCount(1);
  for (const take of ["Second take.", "Third take."]) {
    await fake.script({ kind: "text", text: take });
    await chat.messages("assistant").last().getByTestId("regenerate-button").click();
    await expect(chat.messages("assistant").getByTestId("message-text")).toHaveText(take);
    await chat.waitUntilReady();
  }
  // One user message, one reply on screen, three variants behind it.
  await expect(chat.messages("user")).toHaveCount(1);
  await expect(chat.messages("assistant").getByTestId("variant-position")).toHaveText("3 / 3");
  await chat.messages("assistant").getByTestId("variant-previous").click();
  await expect(chat.messages("assistant").getByTestId("variant-position")).toHaveText("2 / 3");
  await expect(chat.messages("assistant").getByTestId("message-text")).toHaveText("Second take.");
  await page.reload();
  await expect(chat.messages("assistant").getByTestId("message-text")).toHaveText("Second take.");

  // Every request held the question once; the next turn sends the chosen variant.
  await chat.askScripted(fake, "And another?", "Noted.");
  const requests = await fake.requests("openai-chat");
  for (const request of requests) {
    const sent = JSON.parse(request.body).messages as { role: string; content: string }[];
    expect(sent.filter((message) => message.content === "Tell me a fact")).toHaveLength(1);
  }
  const lastSent = JSON.parse(requests.at(-1)?.body ?? "{}").messages as { role: string; content: string }[];
  expect(
    lastSent.filter((message) => message.role === "assistant").map((message) => message.content),
  ).toEqual(["Second take."]);
});

test("edit the last message and regenerate: the next body carries the edit; the first version is one step back", async ({
  page,
}) => {
  const { chat } = await startConversation(page, "Editor");
  await chat.askScripted(fake, "Capital of Frence?", "Paris.");
  await fake.script({ kind: "text", text: "Paris, in France." });
  await chat.messages("user").getByTestId("edit-message").click();
  await page.getByTestId("message-editor-text").fill("Capital of France?");
  await page.getByTestId("message-editor-save-regenerate").click();
  await expect(chat.messages("assistant").getByTestId("message-text")).toHaveText("Paris, in France.");
  await chat.waitUntilReady();
  await expect(chat.messages("user").getByTestId("message-text")).toHaveText("Capital of France?");
  const requests = await fake.requests("openai-chat");
  const sent = JSON.parse(requests.at(-1)?.body ?? "{}").messages as { role: string; content: string }[];
  expect(sent.at(-1)).toEqual({ role: "user", content: "Capital of France?" });
  expect(JSON.stringify(sent)).not.toContain("Frence");

  // The answered question forked: its first version is one step back (e2e/edit-forks.spec.ts).
  await expect(chat.messages("user").getByTestId("question-branch-label")).toHaveText("2 / 2");
});

test("branch from a message: a new conversation with the messages up to it", async ({ page }) => {
  const { chat } = await startConversation(page, "Brancher");
  await fake.script([
    { kind: "text", text: "One." },
    { kind: "text", text: "Two." },
  ]);
  await chat.sendAndWait("First question");
  await chat.sendAndWait("Second question");
  const originalUrl = page.url();
  await chat.messages("assistant").first().getByTestId("branch-message").click();
  await expect(page).not.toHaveURL(originalUrl);
  await expect(chat.messages("user").getByTestId("message-text")).toHaveText(["First question"]);
  await expect(chat.messages("assistant").getByTestId("message-text")).toHaveText(["One."]);
  await chat.askScripted(fake, "A different second question", "Another path.");
  const requests = await fake.requests("openai-chat");
  const sent = JSON.parse(requests.at(-1)?.body ?? "{}").messages as { role: string; content: string }[];
  expect(sent.map((message) => message.content)).not.toContain("Second question");
  expect(sent.map((message) => message.content)).toContain("One.");
});

test("auto-scroll follows the stream until the reader scrolls up, then offers a jump to the latest", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1000, height: 700 });
  const { chat } = await startConversation(page, "Scroll");
  const lines = Array.from({ length: 120 }, (_, index) => `Line ${index + 1} of a long answer.`).join("\n\n");
  await fake.script({ kind: "text", text: lines, chunks: 60, chunkDelayMs: 60 });
  await chat.send("Write a lot");
  const list = page.getByTestId("message-list");
  await expect(chat.messages("assistant").getByTestId("message-text")).toContainText("Line 20 of");
  const distanceFromBottom = () =>
    list.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight);
  // The list follows once each new chunk has been laid out (a resize observer), so it is polled, not sampled.
  await expect.poll(distanceFromBottom).toBeLessThan(80);
  await expect(page.getByTestId("jump-to-latest")).toHaveCount(0);

  // Scrolled up as a person does, with the wheel (the list tells the reader's scroll from its own by it).
  await list.hover();
  // Chromium animates a wheel scroll, and a layout during the animation can stop it short of the top; a person
  // then turns the wheel again, and so does the test.
  await expect(async () => {
    await page.mouse.wheel(0, -100_000);
    await expect
      .poll(() => list.evaluate((element) => element.scrollTop), { timeout: 1_000 })
      .toBeLessThan(50);
  }).toPass({ timeout: 10_000 });
  await expect(page.getByTestId("jump-to-latest")).toBeVisible();
  await expect(chat.messages("assistant").getByTestId("message-text")).toContainText("Line 60 of");
  // New text did not pull the reader down.
  expect(await list.evaluate((element) => element.scrollTop)).toBeLessThan(50);

  await page.getByTestId("jump-to-latest").click();
  await expect(page.getByTestId("jump-to-latest")).toHaveCount(0);
  await expect.poll(distanceFromBottom).toBeLessThan(80);
  await chat.waitUntilReady();
  expect(await distanceFromBottom()).toBeLessThan(80);
});

test("replies render markdown safely: no raw HTML, no script links", async ({ page }) => {
  const { chat } = await startConversation(page, "Safe");
  await fake.script({
    kind: "text",
    text: 'Look: <img src=x onerror="window.__xss=1"> and [click me](javascript:window.__xss=2) and [docs](https://example.com).\n\n| a | b |\n|---|---|\n| 1 | 2 |',
  });
  await chat.sendAndWait("Try to break out");
  const reply = chat.messages("assistant").getByTestId("message-text");
  await expect(reply).toContainText('<img src=x onerror="window.__xss=1">');
  await expect(reply.locator("img")).toHaveCount(0);
  await expect(reply.locator("a")).toHaveCount(1);
  await expect(reply.locator("a")).toHaveAttribute("href", "https://example.com");
  await expect(reply.locator("a")).toHaveAttribute("rel", /noopener/);
  await expect(reply).toContainText("click me");
  await expect(reply.locator("table td")).toHaveText(["1", "2"]);
  expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
});

test("the owner's conversation settings (note and instructions) reach the next payload", async ({ page }) => {
  const { chat, conversationId } = await startConversation(page, "Owner");
  await page.getByTestId("conversation-settings-button").click();
  const dialog = page.getByTestId("conversation-settings");
  await dialog.getByTestId("settings-note-text").fill("Answer in French.");
  await dialog.getByTestId("settings-note-depth").fill("0");
  await dialog.getByTestId("settings-note-role").selectOption("system");
  await dialog.getByTestId("settings-instructions").fill("Be brief.");
  await dialog.getByTestId("settings-save").click();
  await expect(dialog).toBeHidden();

  const stored = await (await page.request.get(`/api/conversations/${conversationId}`)).json();
  expect(stored.conversation.instructions).toBe("Be brief.");
  expect(stored.conversation.settingsOverride.contextNote).toMatchObject({
    text: "Answer in French.",
    depth: 0,
    role: "system",
  });

  const panel = await chat.openPreview();
  const note = panel.root.locator('[data-testid="inspector-item"][data-tag="CONTEXT_NOTE"]');
  await expect(note).toHaveAttribute("data-role", "system");
  await expect(note.getByTestId("item-text")).toHaveText("[System: Answer in French.]");
  await expect(
    panel.root
      .locator('[data-testid="inspector-item"][data-tag="CONVERSATION_INSTRUCTIONS"]')
      .getByTestId("item-text"),
  ).toHaveText("# CONVERSATION INSTRUCTIONS\nBe brief.", { useInnerText: true });

  // An out-of-range depth is refused with the server's message and nothing changes.
  await page.getByTestId("conversation-settings-button").click();
  await dialog.getByTestId("settings-note-depth").fill("5000");
  await dialog.getByTestId("settings-save").click();
  await expect(dialog.getByTestId("settings-error")).toHaveText(
    "settingsOverride.contextNote.depth: contextNote.depth must be a whole number from 0 to 1000",
  );
  const unchanged = await (await page.request.get(`/api/conversations/${conversationId}`)).json();
  expect(unchanged.conversation.settingsOverride.contextNote.depth).toBe(0);
});

test("on a phone-sized screen the sidebar and the inspector open as drawers", async ({ browser }) => {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  const page = await context.newPage();
  const { chat } = await startConversation(page, "Phone");

  const sidebar = page.getByTestId("sidebar");
  await expect(sidebar).not.toBeInViewport();
  await page.getByTestId("open-sidebar").click();
  await expect(sidebar).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId("conversation-search")).toBeVisible();
  await page.getByTestId("close-sidebar").click();
  await expect(sidebar).not.toBeInViewport();

  await chat.sendAndWait("Hello from a phone");
  const panel = await chat.inspectReply();
  const box = await panel.root.boundingBox();
  expect(box?.x).toBe(0);
  expect(box?.width).toBe(390);
  await expect(panel.items()).toHaveCount(2);
  await expect(panel.root.getByTestId("token-bar")).toBeInViewport();
  await panel.showView("raw");
  await expect(panel.root.getByTestId("raw-body")).toBeVisible();
  await panel.close();
  await expect(page.getByTestId("composer-input")).toBeVisible();
  await context.close();
});

test("a fetch-limit overflow in manual summary mode: the transcript marks where the model's view begins", async ({
  page,
}) => {
  const { chat, conversationId } = await startConversation(page, "Window");
  await chat.overrideSettings(conversationId, {
    history: { messageFetchLimit: 4 },
    summary: { mode: "manual" },
  });
  for (const question of ["one", "two", "three"]) await chat.sendAndWait(`Question ${question}`);
  await page.reload();
  // The last turn loaded its question and the three messages before it: the first question was not sent, and
  // the transcript says so above the first reply.
  const divider = page.getByTestId("model-view-divider");
  await expect(divider).toBeVisible();
  await expect(divider).toContainText(
    "The model sees from here: 1 earlier message was not sent (fetch limit)",
  );
  const firstReply = chat.messages("assistant").first();
  await expect(divider).toHaveAttribute(
    "data-before-message-id",
    (await firstReply.getAttribute("data-message-id")) ?? "",
  );
});
