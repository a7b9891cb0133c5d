// axe-core on every page, in light and dark themes, at desktop (1440×900) and phone (390×844) sizes: any serious
// or critical violation fails the run. Each page state is audited with every rule in the light theme, then with the
// colour rules in the dark one (e2e/pages/axe-audit.ts). Also the keyboard basics axe cannot see: the skip link,
// arrow keys in tab lists, that no page asks for a missing favicon, and that no page throws a script error (a
// hydration mismatch among them).
import { expect, type Page, test } from "@playwright/test";
import postgres from "postgres";
import { newModelBody } from "../tests/fixtures/model-body";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { registerWithRole } from "./pages/admin-role";
import { auditBothThemes, type Finding } from "./pages/axe-audit";
import { type ChatPage, startConversation } from "./pages/chat-page";

const fake = fakeProvidersForSpec();
const databaseUrl = process.env.E2E_DATABASE_URL;
const sql = databaseUrl ? postgres(databaseUrl, { max: 1, onnotice: () => {} }) : null;

test.afterAll(async () => {
  await sql?.end();
});

const VIEWPORTS = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

async function registerAdmin(page: Page, name: string): Promise<ChatPage> {
  return (await registerWithRole(page, name, "admin")).chat;
}

/** Opens each [path, test id of what it must show] page and audits it once it has settled. */
async function auditPages(page: Page, pages: ReadonlyArray<[string, string]>): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const [path, testId] of pages) {
    await page.goto(path);
    await expect(page.getByTestId(testId)).toBeVisible();
    await page.waitForLoadState("networkidle");
    findings.push(...(await auditBothThemes(page, path)));
  }
  return findings;
}

/** Every uncaught script error, by page: a hydration mismatch (the server's render differing from the browser's) is one. */
function collectScriptErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) =>
    errors.push(`${new URL(page.url()).pathname}: ${error.message.split("\n")[0]}`),
  );
  return errors;
}

/** Every 404 the page asked for (a missing favicon shows up here). */
function collectMissing(page: Page): string[] {
  const missing: string[] = [];
  page.on("response", (response) => {
    if (response.status() === 404) missing.push(new URL(response.url()).pathname);
  });
  return missing;
}

for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
  test(`axe: no serious or critical violations on any page, light and dark (${viewportName})`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize(viewport);
    const missing = collectMissing(page);
    const scriptErrors = collectScriptErrors(page);
    const findings: Finding[] = [];

    await page.goto("/sign-in");
    await expect(page.getByTestId("auth-submit")).toBeVisible();
    findings.push(...(await auditBothThemes(page, "sign-in")));
    await page.goto("/sign-up");
    await expect(page.getByTestId("name-input")).toBeVisible();
    // The theme chosen on the last page holds on this one (the root layout applies it before paint).
    await expect(page.locator("html")).toHaveClass(/dark/);
    findings.push(...(await auditBothThemes(page, "sign-up")));

    const chat = await registerAdmin(page, `Axe${viewportName}`);
    await expect(page.getByTestId("chat-empty")).toBeVisible();
    findings.push(...(await auditBothThemes(page, "chat (start)")));

    if (viewportName === "phone") {
      await page.getByTestId("open-sidebar").first().click();
      await expect(page.getByTestId("sidebar-container")).toHaveAttribute("data-open", "true");
      findings.push(...(await auditBothThemes(page, "chat (sidebar drawer)")));
      await page.getByTestId("sidebar-backdrop").click({ position: { x: 370, y: 400 } });
    }

    await chat.newConversation();
    await expect(page.getByTestId("composer-input")).toBeVisible();
    findings.push(...(await auditBothThemes(page, "chat (empty conversation)")));
    await fake.script({
      kind: "text",
      text: "Hello **there**.\n\n- one\n- two\n\n`code` and a [link](/chat).",
    });
    await chat.sendAndWait("Hi, what can you see?");
    findings.push(...(await auditBothThemes(page, "chat (conversation)")));

    const panel = await chat.inspectReply();
    await expect(panel.items().first()).toBeVisible();
    findings.push(...(await auditBothThemes(page, "inspector (payload)")));
    await panel.showView("raw");
    await expect(panel.root.getByTestId("raw-body")).toBeVisible();
    findings.push(...(await auditBothThemes(page, "inspector (raw)")));
    await panel.showView("diff");
    await expect(panel.root.getByTestId("payload-diff")).toBeVisible();
    findings.push(...(await auditBothThemes(page, "inspector (diff)")));
    await panel.close();
    await chat.openPreview();
    findings.push(...(await auditBothThemes(page, "inspector (preview)")));

    // The reader's own pages and the admin's, the list of model calls last: one of them opens on a page of its own.
    findings.push(
      ...(await auditPages(page, [
        ["/invitations", "invitations"],
        ["/settings/memories", "memory-settings"],
        ["/settings/api-keys", "api-key-settings"],
        ["/admin/personas", "persona-list"],
        ["/admin/settings", "policy-version"],
        ["/admin/models", "model-registry"],
        ["/admin/blocks", "block-manager"],
        ["/admin/memories", "memory-manager"],
        ["/admin/users", "user-manager"],
        ["/attempts?kind=reply", "attempt-results"],
      ])),
    );
    await page.getByTestId("attempt-result-open").first().click();
    await expect(page.getByTestId("inspector-item").first()).toBeVisible();
    findings.push(...(await auditBothThemes(page, "/attempts/[id]")));

    // The policy form with its errors and summary shown.
    await page.goto("/admin/settings");
    await page.getByTestId("setting-history.messageFetchLimit").fill("0");
    await page.getByTestId("policy-save").click();
    await expect(page.getByTestId("policy-error-summary")).toBeVisible();
    findings.push(...(await auditBothThemes(page, "/admin/settings (errors)")));
    await page.goto("/admin/personas");
    await page.getByTestId("persona-link").first().click();
    await expect(page.getByTestId("persona-title")).toBeVisible();
    await page.waitForLoadState("networkidle");
    findings.push(...(await auditBothThemes(page, "/admin/personas/[id]")));

    expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
    expect(missing).toEqual([]);
    expect(scriptErrors).toEqual([]);
  });
}

test("admin memories with rows, active and inactive: every control named for its row, every text at AA contrast", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize(VIEWPORTS.desktop);
  await registerAdmin(page, "AxeMemories");
  await page.goto("/admin/memories");
  await expect(page.getByTestId("memory-manager")).toBeVisible();
  // One area a memory, unique to this run: each row is then found by the name its boxes get.
  const run = Date.now().toString(36);
  const memories = [
    { area: `bees${run}`, content: "Keeps bees on the roof." },
    { area: `tea${run}`, content: "Drinks green tea." },
    { area: `sea${run}`, content: "Lives by the sea." },
  ];
  const contentBox = (area: string) =>
    page.getByRole("textbox", { name: new RegExp(`^Content of the ${area} memory of `) });
  const row = (area: string) => page.getByTestId("memory-row").filter({ has: contentBox(area) });
  for (const { area, content } of memories) {
    await page.getByTestId("memory-area").fill(area);
    await page.getByTestId("memory-content").fill(content);
    await page.getByTestId("memory-add").click();
    // Each row's boxes are named for whose memory they are, not all "Content".
    await expect(contentBox(area)).toHaveValue(content);
    await expect(
      row(area).getByRole("textbox", { name: new RegExp(`^Area of the ${area} memory of `) }),
    ).toHaveValue(area);
  }
  const inactive = memories[1].area;
  await row(inactive)
    .getByRole("checkbox", { name: new RegExp(`^Active: the ${inactive} memory of `) })
    .click(); // saved, then shown unchecked once the list is read again
  await expect(row(inactive)).toHaveAttribute("data-active", "false");
  await expect(row(inactive).getByTestId("memory-row-inactive")).toBeVisible();
  await expect(row(memories[0].area)).toHaveAttribute("data-active", "true");

  await page.reload();
  await expect(row(inactive)).toHaveAttribute("data-active", "false");
  await page.waitForLoadState("networkidle");
  const findings = await auditBothThemes(page, "/admin/memories with rows");
  expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
});

test("admin models and blocks with rows that no longer apply: a disabled model and an expired block at AA contrast", async ({
  page,
}) => {
  test.skip(!sql, "needs E2E_DATABASE_URL (Postgres) to write an expired block");
  test.setTimeout(120_000);
  await page.setViewportSize(VIEWPORTS.desktop);
  await registerAdmin(page, "AxeRows");
  const run = Date.now().toString(36);
  const modelId = `axe:off-${run}`;
  const created = await page.request.post("/api/admin/models", {
    data: newModelBody(modelId, { label: "Switched off", enabled: false }),
  });
  expect(created.status(), await created.text()).toBe(201);
  // An expired block cannot be made through the API (a block lasts a minute at least): written as it would be.
  const database = sql as NonNullable<typeof sql>;
  const [persona] = await database<{ id: string }[]>`select id from personas order by "createdAt" limit 1`;
  const [blocked] = await database<
    { id: string }[]
  >`select id from "user" where name = 'AxeRows' order by "createdAt" desc limit 1`;
  await database`insert into persona_user_blocks (id, "personaId", "userId", "blockType", reason, "expiresAt", "setBy")
    values (gen_random_uuid(), ${persona.id}, ${blocked.id}, 'mute', ${`expired ${run}`}, now() - interval '1 hour', ${blocked.id})
    on conflict ("personaId", "userId") do update set "expiresAt" = excluded."expiresAt", reason = excluded.reason`;

  const findings: Finding[] = [];
  await page.goto("/admin/models");
  await expect(page.locator(`[data-testid="model-row"][data-model-id="${modelId}"]`)).toBeVisible();
  await page.waitForLoadState("networkidle");
  findings.push(...(await auditBothThemes(page, "/admin/models with a disabled model")));
  await page.goto("/admin/blocks");
  await expect(page.getByTestId("block-row").filter({ hasText: `expired ${run}` })).toContainText(
    "(expired)",
  );
  await page.waitForLoadState("networkidle");
  findings.push(...(await auditBothThemes(page, "/admin/blocks with an expired block")));
  expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
});

test("keyboard: the skip link jumps to the composer, tab lists follow the arrow keys, the favicon is served", async ({
  page,
}) => {
  await page.setViewportSize(VIEWPORTS.desktop);
  const missing = collectMissing(page);
  const { chat } = await startConversation(page, "Keys");
  await chat.sendAndWait("Hello");

  // The first Tab stop is the skip link, shown while focused; following it lands in the composer.
  await page.reload();
  await page.keyboard.press("Tab");
  const skip = page.getByTestId("skip-link");
  await expect(skip).toBeFocused();
  await expect(skip).toHaveText("Skip to the composer");
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("composer-input")).toBeFocused();

  // Inspector views: a roving tab stop, arrows move and select, Home and End jump.
  const panel = await chat.inspectReply();
  const tab = (view: string) => panel.root.getByTestId(`tab-${view}`);
  await expect(tab("payload")).toHaveAttribute("tabindex", "0");
  await expect(tab("raw")).toHaveAttribute("tabindex", "-1");
  await tab("payload").focus();
  await page.keyboard.press("ArrowRight");
  await expect(tab("raw")).toBeFocused();
  await expect(tab("raw")).toHaveAttribute("aria-selected", "true");
  await expect(panel.root.getByTestId("raw-body")).toBeVisible();
  await page.keyboard.press("End");
  await expect(tab("diff")).toBeFocused();
  await expect(tab("diff")).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowRight");
  await expect(tab("payload")).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(tab("diff")).toBeFocused();
  await page.keyboard.press("Home");
  await expect(tab("payload")).toBeFocused();
  await expect(tab("payload")).toHaveAttribute("aria-selected", "true");
  // The keyboard-focused tab draws a visible ring (2 px, solid), not the browser's thin default.
  expect(
    await tab("payload").evaluate((element) => {
      const style = getComputedStyle(element);
      return `${style.outlineStyle} ${style.outlineWidth}`;
    }),
  ).toBe("solid 2px");

  const icon = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(icon).toBeTruthy();
  expect((await page.request.get(icon as string)).status()).toBe(200);
  expect(missing).toEqual([]);
});
