// The admin area end to end: an admin edits the default persona's context note in the UI, previews it, saves, and
// the next real turn's request (as the fake OpenAI server received it) carries the note at the new depth. A
// non-admin is refused by the API and sent back to the chat by the pages. Roles are given by the e2e admin
// (e2e/pages/admin-role.ts), on either database.
import { expect, type Page, test } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { adminApi, registerWithRole } from "./pages/admin-role";

const fake = fakeProvidersForSpec();

let defaultPersona: { id: string; settingsOverride: unknown } | null = null;
let policyInForce: unknown = null;

test.beforeAll(async () => {
  const api = await adminApi();
  try {
    const personas = await api.get("/api/admin/personas");
    expect(personas.status()).toBe(200);
    // The oldest persona is the default one (the list is in the order they were made).
    const [first] = ((await personas.json()) as { personas: { id: string; settingsOverride: unknown }[] })
      .personas;
    defaultPersona = first ? { id: first.id, settingsOverride: first.settingsOverride } : null;
    const policy = await api.get("/api/admin/settings");
    expect(policy.status()).toBe(200);
    policyInForce = ((await policy.json()) as { settings: unknown }).settings;
  } finally {
    await api.dispose();
  }
});

test.afterAll(async () => {
  // Leave the shared e2e database's default persona and policy as they were for the specs that run after this one;
  // versions are never overwritten: the policy as it was goes back in force as a newer version.
  const api = await adminApi();
  try {
    if (defaultPersona) {
      const restored = await api.put(`/api/admin/personas/${defaultPersona.id}`, {
        data: { settingsOverride: defaultPersona.settingsOverride },
      });
      expect(restored.status(), await restored.text()).toBe(200);
    }
    if (policyInForce) {
      const restored = await api.put("/api/admin/settings", { data: { settings: policyInForce } });
      expect(restored.status(), await restored.text()).toBe(200);
    }
  } finally {
    await api.dispose();
  }
});

async function registerAs(page: Page, name: string, role: "admin" | "user") {
  return (await registerWithRole(page, name, role)).chat;
}

test("an admin edits the default persona's context note and depth; the next turn sends it at that depth", async ({
  page,
}) => {
  const chat = await registerAs(page, "Admin", "admin");
  const conversationId = await chat.newConversation();
  await fake.script([
    { kind: "text", text: "First answer." },
    { kind: "text", text: "Second answer." },
  ]);
  await chat.send("First question");
  await expect(chat.messages("assistant")).toHaveCount(1);
  await chat.waitUntilReady();
  await chat.send("Second question");
  await expect(chat.messages("assistant")).toHaveCount(2);
  await chat.waitUntilReady();

  // To the persona editor through the sidebar's admin link.
  await page.getByTestId("admin-link").click();
  await expect(page).toHaveURL(/\/admin\/personas$/);
  await page.getByTestId("persona-link").filter({ hasText: "Glassbox Guide" }).click();
  await expect(page.getByTestId("persona-title")).toHaveText("Glassbox Guide");

  const note = "Remember the lighthouse keeper's rules.";
  await page.getByTestId("setting-contextNote.text").fill(note);
  await page.getByTestId("setting-contextNote.depth").fill("5000");
  await page.getByTestId("persona-save").click();
  // The API's range message shows inline under the field, and nothing is saved.
  await expect(page.getByTestId("setting-error-contextNote.depth")).toHaveText(
    "contextNote.depth must be a whole number from 0 to 1000",
  );

  await page.getByTestId("setting-contextNote.depth").fill("2");
  // Preview before saving: the note appears in the payload, one item added versus the saved persona.
  await page.getByTestId("preview-conversation").selectOption(conversationId);
  await page.getByTestId("preview-text").fill("Third question");
  await page.getByTestId("preview-run").click();
  await expect(page.getByTestId("diff-added")).toHaveText("1");
  const previewTags = await page
    .getByTestId("preview-item")
    .evaluateAll((items) => items.map((item) => item.getAttribute("data-tag")));
  expect(previewTags).toEqual([
    "SYSTEM_PROMPT",
    "DIALOGUE_HISTORY",
    "DIALOGUE_HISTORY",
    "CONTEXT_NOTE",
    "DIALOGUE_HISTORY",
    "DIALOGUE_HISTORY",
    "CURRENT_INPUT",
  ]);
  await expect(page.locator('[data-testid="preview-item"][data-tag="CONTEXT_NOTE"]')).toContainText(
    `[System: ${note}]`,
  );

  await page.getByTestId("persona-save").click();
  await expect(page.getByTestId("persona-saved")).toBeVisible();

  // The next real turn.
  await page.goto(`/chat/${conversationId}`);
  await fake.clear();
  await fake.script({ kind: "text", text: "Third answer." });
  await chat.send("Third question");
  await expect(chat.messages("assistant")).toHaveCount(3);
  await chat.waitUntilReady();

  const [received] = await fake.requests("openai-chat");
  const messages = (JSON.parse(received.body) as { messages: Array<{ role: string; content: unknown }> })
    .messages;
  const text = (message: { content: unknown }) =>
    typeof message.content === "string" ? message.content : JSON.stringify(message.content);
  expect(messages.map((message) => [message.role, text(message)])).toEqual([
    ["system", expect.stringContaining("Glassbox Guide")],
    ["user", "First question"],
    ["assistant", "First answer."],
    ["user", `[System: ${note}]`],
    ["user", "Second question"],
    ["assistant", "Second answer."],
    ["user", "Third question"],
  ]);
  // Depth 2: exactly two history messages between the note and the current input.
  const noteIndex = messages.findIndex((message) => text(message) === `[System: ${note}]`);
  expect(messages.length - 1 - noteIndex - 1).toBe(2);
});

test("a non-admin gets 403 from the admin API and is sent from /admin back to /chat", async ({ page }) => {
  await registerAs(page, "Member", "user");
  await expect(page.getByTestId("admin-link")).toHaveCount(0);
  const response = await page.request.get("/api/admin/settings");
  expect(response.status()).toBe(403);
  expect((await response.json()).error).toEqual({ code: "forbidden", message: "Admins only." });
  const put = await page.request.put("/api/admin/settings", { data: { settings: {} } });
  expect(put.status()).toBe(403);
  for (const path of ["/admin", "/admin/settings", "/admin/personas"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/chat$/);
  }
});

test("the context policy page: every key with help, inline range errors, a preview of unsaved edits, save as a new version", async ({
  page,
}) => {
  const chat = await registerAs(page, "Policy", "admin");
  const conversationId = await chat.newConversation();
  await page.getByTestId("admin-link").click();
  await page.getByTestId("admin-nav-settings").click();
  await expect(page).toHaveURL(/\/admin\/settings$/);
  await expect(page.locator('[data-testid^="field-"]')).toHaveCount(29);
  await expect(page.getByTestId("field-summary.thresholdPercent")).toContainText("Default: 64");
  await expect(page.getByTestId("field-summary.thresholdPercent")).toContainText("10–95");
  const versionText = (await page.getByTestId("policy-version").textContent()) ?? "";
  const version = Number(versionText.replace(/\D+/g, ""));

  await page.getByTestId("setting-history.messageFetchLimit").fill("0");
  await page.getByTestId("policy-save").click();
  await expect(page.getByTestId("setting-error-history.messageFetchLimit")).toHaveText(
    "history.messageFetchLimit must be a whole number from 1 to 10000",
  );
  await expect(page.getByTestId("policy-version")).toHaveText(`version ${version}`);
  // In range, but too few messages for the 15 turns a summary keeps verbatim: refused with a sentence naming both.
  await page.getByTestId("setting-history.messageFetchLimit").fill("20");
  await page.getByTestId("policy-save").click();
  await expect(page.getByTestId("setting-error-history.messageFetchLimit")).toHaveText(
    "history.messageFetchLimit (20) cannot hold the 15 turns summary.keepRecentTurns keeps verbatim: every turn would be summarised again. Load at least 32 messages or keep fewer turns.",
  );
  await expect(page.getByTestId("policy-version")).toHaveText(`version ${version}`);
  await page.getByTestId("setting-history.messageFetchLimit").fill("80");

  const reminder = "Speak like a lighthouse keeper.";
  await page.getByTestId("setting-keyContextReminder").fill(reminder);
  await page.getByTestId("preview-conversation").selectOption(conversationId);
  await page.getByTestId("preview-text").fill("Hello?");
  await page.getByTestId("preview-run").click();
  await expect(page.getByTestId("diff-added")).toHaveText("1");
  await expect(page.getByTestId("diff-removed")).toHaveText("0");
  await expect(page.locator('[data-testid="preview-item"][data-tag="KEY_CONTEXT_REMINDER"]')).toContainText(
    reminder,
  );
  await expect(page.locator('[data-testid="preview-item"][data-tag="KEY_CONTEXT_REMINDER"]')).toHaveAttribute(
    "data-changed",
    "true",
  );

  await page.getByTestId("policy-save").click();
  await expect(page.getByTestId("policy-saved")).toHaveText(`Saved as version ${version + 1}.`);
  await expect(page.getByTestId("policy-version")).toHaveText(`version ${version + 1}`);
  const api = await page.request.get("/api/admin/settings");
  expect((await api.json()).settings.keyContextReminder).toBe(reminder);
});

test("every admin page opens from the nav", async ({ page }) => {
  await registerAs(page, "Navigator", "admin");
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/personas$/);
  const pages: Array<[string, string]> = [
    ["models", "model-registry"],
    ["blocks", "block-manager"],
    ["memories", "memory-manager"],
    ["users", "user-manager"],
    ["personas", "persona-list"],
  ];
  for (const [link, testId] of pages) {
    await page.getByTestId(`admin-nav-${link}`).click();
    await expect(page.getByTestId(testId)).toBeVisible();
  }
  await page.getByTestId("admin-nav-models").click();
  await expect(page.getByTestId("provider-openai")).toHaveAttribute("data-configured", "true");
  await expect(page.locator('[data-testid="model-row"][data-model-id="offline:echo"]')).toBeVisible();
  await page
    .locator('[data-testid="model-row"][data-model-id="openai:gpt-4.1-mini"]')
    .getByTestId("model-delete")
    .click();
  await expect(page.getByTestId("model-row-error")).toContainText("Model openai:gpt-4.1-mini is in use by");
  await expect(page.getByTestId("model-row-error")).toContainText("persona Glassbox Guide");
});

test("the context policy form marks every invalid field at once; Save focuses a summary that links to the first", async ({
  page,
}) => {
  await registerAs(page, "Checker", "admin");
  await page.goto("/admin/settings");
  const version = await page.getByTestId("policy-version").textContent();
  // Labels in words, with the key beside them.
  await expect(page.getByTestId("field-history.messageFetchLimit").locator("label")).toHaveText(
    "Messages loaded per turn · history.messageFetchLimit",
  );
  const invalid: Array<[string, string, string]> = [
    ["history.messageFetchLimit", "0", "history.messageFetchLimit must be a whole number from 1 to 10000"],
    ["contextNote.depth", "5000", "contextNote.depth must be a whole number from 0 to 1000"],
    ["summary.thresholdPercent", "200", "summary.thresholdPercent must be a whole number from 10 to 95"],
    ["tools.pruneMinChars", "0", "tools.pruneMinChars must be a whole number from 1 to 1000000"],
    ["budget.safetyMarginPercent", "90", "budget.safetyMarginPercent must be a whole number from 0 to 50"],
  ];
  for (const [key, value] of invalid) await page.getByTestId(`setting-${key}`).fill(value);
  await page.getByTestId("policy-save").click();

  for (const [key, , message] of invalid) {
    await expect(page.getByTestId(`setting-error-${key}`)).toHaveText(message);
    await expect(page.getByTestId(`setting-${key}`)).toHaveAttribute("aria-invalid", "true");
  }
  const summary = page.getByTestId("policy-error-summary");
  await expect(summary).toBeFocused();
  await expect(summary).toContainText("5 fields need attention before saving");
  const links = summary.getByTestId("error-summary-link");
  await expect(links).toHaveText([
    "Messages loaded per turn",
    "Context note depth",
    "Summarise at % of the window",
    "Prune tool outputs longer than",
    "Safety margin %",
  ]);
  await links.first().click();
  await expect(page.getByTestId("setting-history.messageFetchLimit")).toBeFocused();
  // Nothing was saved.
  await expect(page.getByTestId("policy-version")).toHaveText(version ?? "");

  // Fixing a field clears its mark at once; the others stay marked.
  await page.getByTestId("setting-history.messageFetchLimit").fill("80");
  await expect(page.getByTestId("setting-error-history.messageFetchLimit")).toHaveCount(0);
  await expect(links).toHaveCount(4);
});

test("the persona form: an empty name is an error, and fallback models are ordered with up/down and saved in that order", async ({
  page,
}) => {
  await registerAs(page, "Orderer", "admin");
  const created = await page.request.post("/api/admin/personas", {
    data: { name: `Fallbacks ${Date.now()}`, modelId: "openai:gpt-4.1-mini" },
  });
  expect(created.status()).toBe(201);
  const { persona } = (await created.json()) as { persona: { id: string; name: string } };
  await page.goto(`/admin/personas/${persona.id}`);
  await expect(page.getByTestId("persona-title")).toHaveText(persona.name);

  await page.getByTestId("persona-name").fill("  ");
  await page.getByTestId("persona-save").click();
  await expect(page.getByTestId("persona-name-error")).toHaveText("Name must not be empty");
  const summary = page.getByTestId("persona-error-summary");
  await expect(summary).toBeFocused();
  await summary.getByTestId("error-summary-link").first().click();
  await expect(page.getByTestId("persona-name")).toBeFocused();
  await page.getByTestId("persona-name").fill(persona.name);
  await expect(summary).toHaveCount(0);

  const rows = page.getByTestId("fallback-row");
  for (const modelId of ["openai:gpt-4o", "google:gemini-2.5-flash", "offline:echo"])
    await page.getByTestId("fallback-add").selectOption(modelId);
  await expect(rows).toHaveText([/openai:gpt-4o/, /google:gemini-2.5-flash/, /offline:echo/]);
  await rows.nth(2).getByTestId("fallback-up").click();
  await rows.nth(0).getByTestId("fallback-down").click();
  const order = () => rows.evaluateAll((items) => items.map((item) => item.getAttribute("data-model-id")));
  expect(await order()).toEqual(["offline:echo", "openai:gpt-4o", "google:gemini-2.5-flash"]);
  await expect(rows.first().getByTestId("fallback-up")).toBeDisabled();

  await page.getByTestId("persona-save").click();
  await expect(page.getByTestId("persona-saved")).toBeVisible();
  const stored = await page.request.get(`/api/admin/personas/${persona.id}`);
  expect(
    ((await stored.json()) as { persona: { fallbackModelIds: string[] } }).persona.fallbackModelIds,
  ).toEqual(["offline:echo", "openai:gpt-4o", "google:gemini-2.5-flash"]);
  await page.request.delete(`/api/admin/personas/${persona.id}`);
});
