// The chat as a new user meets it: Stop and Escape leave the focus in the message box; a phone shows the
// conversation's title readably and the admin models page without a sideways scroll; the preview follows the
// composer's draft; a role changes only once confirmed; an invited person is told so in the sidebar.
import { type Browser, expect, type Page } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { registerWithRole } from "./pages/admin-role";
import { signUp, startConversation } from "./pages/chat-page";
import { test } from "./pages/people";

const fake = fakeProvidersForSpec();

/** Registers an admin (the e2e admin gives the role: e2e/pages/admin-role.ts). */
async function registerAdmin(page: Page, name: string) {
  return (await registerWithRole(page, name, "admin")).chat;
}

async function phonePage(browser: Browser) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  return { context, page: await context.newPage() };
}

test("Stop gives the focus back to the message box; Escape stops a streaming reply like Stop", async ({
  page,
}) => {
  const { chat } = await startConversation(page, "Escape");
  const words = Array.from({ length: 80 }, (_, index) => `word${index}`).join(" ");
  const slowReply = { kind: "text", text: words, chunks: 80, chunkDelayMs: 100 } as const;

  /** Sends `text`, lets reply `index` stream a few words, stops it with `stop` and waits until it is stored. */
  const stopSlowReply = async (index: number, text: string, stop: () => Promise<void>) => {
    await fake.script(slowReply);
    await chat.send(text);
    await expect(chat.messages("assistant").nth(index).getByTestId("message-text")).toContainText("word5");
    await stop();
    await chat.waitUntilReady();
    await expect(chat.messages("assistant").getByTestId("stopped-chip")).toHaveCount(index + 1);
  };

  await stopSlowReply(0, "Count slowly", () => page.getByTestId("stop-button").click());
  await expect(page.getByTestId("composer-input")).toBeFocused();

  // Escape with the focus in the composer.
  await stopSlowReply(1, "Again, slowly", () => page.getByTestId("composer-input").press("Escape"));
  await expect(page.getByTestId("composer-input")).toBeFocused();

  // Escape with the focus elsewhere on the page (the conversation's title, outside any field).
  await stopSlowReply(2, "Once more", async () => {
    await page.getByTestId("conversation-title").click();
    await page.keyboard.press("Escape");
  });
  const stored = (await chat.messages("assistant").nth(2).getByTestId("message-text").textContent()) ?? "";
  expect(stored.length).toBeLessThan(words.length);
});

test("on a phone, Escape with the sidebar drawer open closes the drawer and leaves the reply streaming", async ({
  browser,
}) => {
  const { context, page } = await phonePage(browser);
  const { chat } = await startConversation(page, "Drawer");
  const words = Array.from({ length: 80 }, (_, index) => `word${index}`).join(" ");
  await fake.script({ kind: "text", text: words, chunks: 80, chunkDelayMs: 100 });
  await chat.send("Count slowly");
  await expect(chat.messages("assistant").getByTestId("message-text")).toContainText("word5");
  await page.getByTestId("open-sidebar").click();
  await expect(page.getByTestId("sidebar")).toBeInViewport({ ratio: 1 });
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("sidebar")).not.toBeInViewport();
  await expect(page.getByTestId("stop-button")).toBeVisible();
  await expect(chat.messages("assistant").getByTestId("message-text")).toContainText("word20");
  await page.keyboard.press("Escape");
  await chat.waitUntilReady();
  await expect(chat.messages("assistant").getByTestId("stopped-chip")).toHaveCount(1);
  await context.close();
});

test("on a phone the conversation's title is shown whole, on up to two lines", async ({ browser }) => {
  const { context, page } = await phonePage(browser);
  await signUp(page, "Title");
  const title = "Python list comprehensions";
  const response = await page.request.post("/api/conversations", { data: { title } });
  const { id } = await response.json();
  await page.goto(`/chat/${id}`);
  const heading = page.getByTestId("conversation-title");
  await expect(heading).toHaveText(title);
  const fits = await heading.evaluate((element) => ({
    width: element.clientWidth,
    cutAcross: element.scrollWidth > element.clientWidth,
    cutBelow: element.scrollHeight > element.clientHeight + 1,
  }));
  expect(fits.cutAcross).toBe(false);
  expect(fits.cutBelow).toBe(false);
  expect(fits.width).toBeGreaterThan(120);
  await context.close();
});

test("the admin models page fits a phone: no sideways page scroll, the table scrolls in its own box", async ({
  browser,
}) => {
  const { context, page } = await phonePage(browser);
  await registerAdmin(page, "Phoneadmin");
  await page.goto("/admin/models");
  await expect(page.getByTestId("model-row").first()).toBeVisible();
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    main: document.getElementById("main-content")?.scrollWidth ?? 0,
    registry: document.querySelector('[data-testid="model-registry"]')?.getBoundingClientRect().width ?? 0,
    form: document.querySelector('[data-testid="model-form"]')?.getBoundingClientRect().right ?? 0,
  }));
  expect(widths.page).toBeLessThanOrEqual(390);
  expect(widths.main).toBeLessThanOrEqual(390);
  expect(widths.registry).toBeLessThanOrEqual(390);
  expect(widths.form).toBeLessThanOrEqual(390);
  await context.close();
});

test("the preview starts empty with a placeholder and follows the composer's draft", async ({ page }) => {
  const { chat } = await startConversation(page, "Preview");
  const panel = await chat.openPreview();
  const box = panel.root.getByTestId("preview-text");
  await expect(box).toHaveValue("");
  await expect(box).toHaveAttribute("placeholder", "Your next message");

  await page.getByTestId("composer-input").fill("What makes the tides?");
  await expect(box).toHaveValue("What makes the tides?");
  await expect(panel.root.getByTestId("payload-preview")).toHaveAttribute("data-state", "ready");
  const current = panel.root.locator('[data-testid="inspector-item"][data-tag="CURRENT_INPUT"]');
  await expect(current).toContainText("What makes the tides?");

  // Typed in, the box is the preview's own: the draft no longer replaces it.
  await box.fill("A question of my own");
  await page.getByTestId("composer-input").fill("Something else");
  await expect(box).toHaveValue("A question of my own");
});

test("a role changes only once confirmed; Cancel leaves it as it was", async ({ page, browser }) => {
  const other = await browser.newContext();
  const { email: bobEmail } = await signUp(await other.newPage(), "Bob", "bob-role");
  await other.close();
  await registerAdmin(page, "Roleadmin");
  await page.goto("/admin/users");
  const bob = page.locator(`[data-testid="user-row"][data-user-email="${bobEmail}"]`);
  await expect(bob.getByTestId("user-role")).toHaveText("user");

  await bob.getByTestId("user-toggle-role").click();
  await expect(page.getByTestId("role-confirm-message")).toHaveText(`Make Bob (${bobEmail}) an admin?`);
  await page.getByTestId("role-confirm-cancel").click();
  await expect(page.getByTestId("role-confirm-message")).toHaveCount(0);
  await expect(bob.getByTestId("user-role")).toHaveText("user");
  // Stored as it was too, as the admin API lists it.
  const listed = await page.request.get("/api/admin/users");
  const { users } = (await listed.json()) as { users: { email: string; role: string }[] };
  expect(users.find((user) => user.email === bobEmail)?.role).toBe("user");

  await bob.getByTestId("user-toggle-role").click();
  await page.getByTestId("role-confirm-confirm").click();
  await expect(bob.getByTestId("user-role")).toHaveText("admin");
});

test("an invited person sees who invited them to which conversation in the sidebar, with a link", async ({
  personPage,
}) => {
  const bobPage = await personPage();
  const { email: bobEmail } = await signUp(bobPage, "Bob", "bob-notice");
  await expect(bobPage.getByTestId("invitation-notice")).toHaveCount(0);

  const adaPage = await personPage();
  await signUp(adaPage, "Ada", "ada-notice");
  const created = await adaPage.request.post("/api/conversations", { data: { title: "Lisbon trip" } });
  const { id } = await created.json();
  const invited = await adaPage.request.post(`/api/conversations/${id}/participants`, {
    data: { email: bobEmail },
  });
  expect(invited.ok()).toBe(true);

  await bobPage.goto("/chat");
  await expect(bobPage.getByTestId("invitation-notice-item")).toHaveText("Ada invited you to Lisbon trip");
  await bobPage.getByTestId("invitation-notice-link").click();
  await expect(bobPage).toHaveURL(/\/invitations$/);
  await bobPage.getByTestId("accept-invitation").click();
  await expect(bobPage).toHaveURL(new RegExp(`/chat/${id}$`));
  await expect(bobPage.getByTestId("invitation-notice")).toHaveCount(0);
});
