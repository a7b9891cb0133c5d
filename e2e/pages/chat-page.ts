// Page object for the chat: intent-named steps over data-testid attributes.
import { expect, type Page } from "@playwright/test";

export class ChatPage {
  constructor(readonly page: Page) {}

  async register({ name, email, password }: { name: string; email: string; password: string }) {
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

  async newConversation(): Promise<string> {
    await this.page.getByTestId("chat-empty").getByTestId("new-conversation").click();
    await expect(this.page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
    return this.page.url().split("/").pop() as string;
  }

  async send(text: string) {
    await this.page.getByTestId("composer-input").fill(text);
    await this.page.getByTestId("composer-input").press("Enter");
  }

  messages(role: "user" | "assistant") {
    return this.page.locator(`[data-testid="message"][data-role="${role}"]`);
  }

  async waitUntilReady() {
    await expect(this.page.getByTestId("chat-view")).toHaveAttribute("data-status", "ready");
  }
}

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
}
