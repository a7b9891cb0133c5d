// Page object for the chat: intent-named steps over data-testid attributes.
import { expect, type Locator, type Page } from "@playwright/test";
import type { FakeProviderClient } from "../fake-providers/client";
import type { ScriptedUsage } from "../fake-providers/script-schema";

export class ChatPage {
  constructor(readonly page: Page) {}

  /**
   * A new account, signed in, on /chat: made through the auth API (sign-up, then sign-in) in the page's browser
   * context, which keeps the session cookie. The sign-up form itself is driven by registerWithForm.
   */
  async register({ name, email, password }: { name: string; email: string; password: string }) {
    // The browser context's origin header goes with these (playwright.config.ts), as the CSRF guard asks.
    const signedUp = await this.page.request.post("/api/auth/sign-up/email", {
      data: { name, email, password },
    });
    expect(signedUp.status(), await signedUp.text()).toBe(200);
    // Sign-up starts no session (it answers the same for a taken email: lib/auth.ts).
    const signedIn = await this.page.request.post("/api/auth/sign-in/email", { data: { email, password } });
    expect(signedIn.status(), await signedIn.text()).toBe(200);
    await this.page.goto("/chat");
    await expect(this.page).toHaveURL(/\/chat$/);
  }

  /** Signs up through the form on /sign-up, as a person does; lands on /chat. */
  async registerWithForm({ name, email, password }: { name: string; email: string; password: string }) {
    await this.page.goto("/sign-up");
    await this.page.getByTestId("name-input").fill(name);
    await this.page.getByTestId("email-input").fill(email);
    await this.page.getByTestId("password-input").fill(password);
    await this.page.getByTestId("auth-submit").click();
    await expect(this.page).toHaveURL(/\/chat$/);
  }

  async signIn({ email, password }: { email: string; password: string }) {
    await this.page.goto("/sign-in");
    await this.page.getByTestId("email-input").fill(email);
    await this.page.getByTestId("password-input").fill(password);
    await this.page.getByTestId("auth-submit").click();
    await expect(this.page).toHaveURL(/\/chat$/);
  }

  /** From the start screen (/chat): starts a conversation with the selected persona (the default one). */
  async newConversation(): Promise<string> {
    if (!/\/chat$/.test(this.page.url())) await this.page.goto("/chat");
    await this.page.getByTestId("chat-empty").getByTestId("new-conversation").click();
    await expect(this.page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
    return this.page.url().split("/").pop() as string;
  }

  async send(text: string) {
    await this.page.getByTestId("composer-input").fill(text);
    await this.page.getByTestId("composer-input").press("Enter");
  }

  /** Send and wait until the reply has finished streaming. */
  async sendAndWait(text: string) {
    const before = await this.messages("assistant").count();
    await this.send(text);
    await expect(this.messages("assistant")).toHaveCount(before + 1);
    await this.waitUntilReady();
  }

  /** Scripts the fake model's answer, then sends `question` and waits until that answer has streamed. */
  async askScripted(fake: FakeProviderClient, question: string, answer: string) {
    await fake.script({ kind: "text", text: answer });
    await this.sendAndWait(question);
  }

  /** Asks what a reply costs, the fake provider answering with `usage` counted; the reply's inspector, opened. */
  async inspectPricedReply(fake: FakeProviderClient, usage: ScriptedUsage): Promise<InspectorPanel> {
    await fake.script({ kind: "text", text: "Priced.", usage });
    await this.sendAndWait("What does this cost?");
    return this.inspectReply();
  }

  /** Picks a model in the conversation's model picker and waits until the conversation shows it. */
  async chooseModel(modelId: string) {
    await this.page.getByTestId("model-picker").selectOption(modelId);
    await expect(this.page.getByTestId("model-id")).toHaveText(modelId);
  }

  /** Sets the conversation's settings override through the API (PATCH /api/conversations/:id). */
  async overrideSettings(conversationId: string, settingsOverride: Record<string, unknown>) {
    const response = await this.page.request.patch(`/api/conversations/${conversationId}`, {
      data: { settingsOverride },
    });
    expect(response.status()).toBe(200);
  }

  /** GETs an API path as the signed-in person; the answer must be 200, its JSON is returned. */
  async getJson<Body>(path: string): Promise<Body> {
    const response = await this.page.request.get(path);
    expect(response.status()).toBe(200);
    return (await response.json()) as Body;
  }

  messages(role: "user" | "assistant") {
    return this.page.locator(`[data-testid="message"][data-role="${role}"]`);
  }

  /**
   * Ready for the next message, as a person sees it: the stream is over and the composer offers Send, not Stop. The
   * stream's end can come before the reply's stored copy says it is complete; until then Enter sends nothing.
   */
  async waitUntilReady() {
    await expect(this.page.getByTestId("chat-view")).toHaveAttribute("data-status", "ready");
    await expect(this.page.getByTestId("send-button")).toBeVisible();
  }

  // -------------------------------------------------------------------------------------------------------------
  // Sidebar

  sidebar(): Locator {
    return this.page.getByTestId("sidebar");
  }

  conversationItems(): Locator {
    return this.page.getByTestId("conversation-item");
  }

  conversationItem(id: string): Locator {
    return this.page.locator(`[data-testid="conversation-item"][data-conversation-id="${id}"]`);
  }

  async searchConversations(query: string) {
    await this.page.getByTestId("conversation-search").fill(query);
  }

  async renameConversation(id: string, title: string) {
    const item = this.conversationItem(id);
    await item.hover();
    await item.getByTestId("rename-conversation").click();
    const input = this.page.getByTestId("rename-input");
    await input.fill(title);
    await input.press("Enter");
    await expect(this.conversationItem(id).getByTestId("conversation-link")).toHaveText(title);
  }

  async deleteConversation(id: string) {
    const item = this.conversationItem(id);
    await item.hover();
    await item.getByTestId("delete-conversation").click();
    await this.page.getByTestId("confirm-delete-confirm").click();
    await expect(this.conversationItem(id)).toHaveCount(0);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Inspector

  inspector(): InspectorPanel {
    return new InspectorPanel(this.page, "inspector");
  }

  /** Opens the inspector on the assistant reply at `index` (default: the last one). */
  async inspectReply(index = -1): Promise<InspectorPanel> {
    const replies = this.messages("assistant");
    const reply = index < 0 ? replies.nth((await replies.count()) + index) : replies.nth(index);
    await reply.getByTestId("inspect-button").click();
    const panel = this.inspector();
    await expect(panel.root).toBeVisible();
    await expect(panel.root.getByTestId("turn-header")).toBeVisible();
    return panel;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Summaries

  /** Sends user messages straight to POST /api/chat (faster than typing), each waiting for its whole reply. */
  async seedTurns(conversationId: string, texts: readonly string[]) {
    for (const text of texts) {
      const response = await this.page.request.post("/api/chat", {
        data: { id: conversationId, message: { role: "user", parts: [{ type: "text", text }] } },
      });
      expect(response.status()).toBe(200);
      await response.body();
    }
  }

  /**
   * Clicks "Compact now" and waits for the server's answer (not only for the button: it may not be pending yet);
   * the transcript is refreshed by then on success.
   */
  async compactNow() {
    const button = this.page.getByTestId("compact-now");
    const answered = this.page.waitForResponse(
      (response) => response.request().method() === "POST" && response.url().endsWith("/compact"),
    );
    await button.click();
    await answered;
    await expect(button).not.toHaveAttribute("data-state", "pending");
  }

  summaryDivider(): Locator {
    return this.page.getByTestId("summary-divider");
  }

  summarizedMessages(): Locator {
    return this.page.locator('[data-testid="message"][data-summarized="true"]');
  }

  /** Opens the summary panel from the transcript's divider. */
  async openSummary(): Promise<SummaryPanel> {
    await this.summaryDivider().getByTestId("view-summary").click();
    const panel = new SummaryPanel(this.page, "summary-panel");
    await expect(panel.root).toBeVisible();
    return panel;
  }

  async openPreview(): Promise<InspectorPanel> {
    await this.page.getByTestId("preview-button").click();
    const panel = this.inspector();
    await expect(panel.root.getByTestId("payload-preview")).toBeVisible();
    await expect(panel.items().first()).toBeVisible();
    return panel;
  }
}

/** A panel of the chat page, found by its test id; its parts are found inside it. */
class Panel {
  readonly root: Locator;

  constructor(
    readonly page: Page,
    testId: string,
  ) {
    this.root = page.getByTestId(testId);
  }

  /** The element with this test id inside the panel. */
  protected part(testId: string): Locator {
    return this.root.getByTestId(testId);
  }
}

export class SummaryPanel extends Panel {
  readonly content = (): Locator => this.part("summary-content");
  readonly historyItems = (): Locator => this.part("summary-history-item");

  async edit(text: string) {
    await this.part("summary-edit").click();
    await this.part("summary-textarea").fill(text);
    await this.part("summary-save").click();
    await expect(this.content()).toHaveText(text);
  }

  /** Revert, confirmed. */
  async revert() {
    await this.part("summary-revert").click();
    await this.part("summary-revert-confirm").click();
    await expect(this.part("summary-revert-confirmation")).toHaveCount(0);
  }

  async close() {
    await this.root.getByRole("button", { name: "Close" }).click();
    await expect(this.root).not.toBeVisible();
  }
}

export class InspectorPanel extends Panel {
  readonly items = (): Locator => this.part("inspector-item");
  readonly attemptTabs = (): Locator => this.part("attempt-tab");

  async showView(view: "payload" | "raw" | "diff") {
    await this.part(`tab-${view}`).click();
  }

  /** Each card as { id, tag, role, text } in the order shown. */
  async itemSummaries(): Promise<{ id: string; tag: string; role: string; text: string }[]> {
    return this.items().evaluateAll((cards) =>
      cards.map((card) => ({
        id: card.getAttribute("data-item-id") ?? "",
        tag: card.getAttribute("data-tag") ?? "",
        role: card.getAttribute("data-role") ?? "",
        text: [...card.querySelectorAll('[data-testid="item-text"]')]
          .map((part) => part.textContent ?? "")
          .join("\n"),
      })),
    );
  }

  /** The raw body exactly as shown in "Exact bytes" mode. */
  async exactBody(): Promise<string> {
    await this.showView("raw");
    await this.part("raw-mode-exact").click();
    return (await this.part("raw-body").textContent()) ?? "";
  }

  async prettyBody(): Promise<string> {
    await this.showView("raw");
    await this.part("raw-mode-pretty").click();
    return (await this.part("raw-body").textContent()) ?? "";
  }

  async curlCommand(): Promise<string> {
    await this.showView("raw");
    await this.part("copy-curl").click();
    return (await this.part("curl-command").textContent()) ?? "";
  }

  async close() {
    await this.part("inspector-close").click();
    await expect(this.root).toHaveCount(0);
  }
}

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
}

/** The password of the people the specs sign up. */
const TEST_PASSWORD = "correct horse battery";

/**
 * Signs a new person up on `page` with a unique e-mail made from `emailPrefix`, through the auth API or, with
 * `through: "form"`, the sign-up form; returns their chat page and e-mail.
 */
export async function signUp(
  page: Page,
  name: string,
  emailPrefix = name.toLowerCase(),
  { through = "api" }: { through?: "api" | "form" } = {},
): Promise<{ chat: ChatPage; email: string }> {
  const chat = new ChatPage(page);
  const account = { name, email: uniqueEmail(emailPrefix), password: TEST_PASSWORD };
  await (through === "form" ? chat.registerWithForm(account) : chat.register(account));
  return { chat, email: account.email };
}

/** Signs a new person up and starts a conversation, on the model `modelId` when one is given. */
export async function startConversation(
  page: Page,
  name: string,
  { emailPrefix, modelId }: { emailPrefix?: string; modelId?: string } = {},
): Promise<{ chat: ChatPage; conversationId: string }> {
  const { chat } = await signUp(page, name, emailPrefix);
  const conversationId = await chat.newConversation();
  if (modelId !== undefined) await chat.chooseModel(modelId);
  return { chat, conversationId };
}
