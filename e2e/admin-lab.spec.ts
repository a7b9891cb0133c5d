// The admin side of the lab, as an admin clicks it: a model's price set on its form costs the next attempt, and
// an earlier policy version is compared key by key with the one in force and restored as a new version.
import { expect, test } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { registerWithRole } from "./pages/admin-role";

const fake = fakeProvidersForSpec();
const MODEL = "openai:gpt-4.1-mini";

test("a price set on the model form costs the next attempt", async ({ page }) => {
  const { chat } = await registerWithRole(page, "Pricer", "admin");
  const before = await page.request.get("/api/admin/models");
  const { models } = (await before.json()) as { models: { id: string; prices: unknown }[] };
  const listPrices = models.find((model) => model.id === MODEL)?.prices;
  try {
    await page.goto("/admin/models");
    await page
      .locator(`[data-testid="model-row"][data-model-id="${MODEL}"]`)
      .getByTestId("model-edit")
      .click();
    await expect(page.getByTestId("model-price-inputPerMillion")).toHaveValue("0.4");
    await page.getByTestId("model-price-inputPerMillion").fill("2");
    await page.getByTestId("model-price-outputPerMillion").fill("10");
    await page.getByTestId("model-save").click();
    await expect(page.getByTestId("model-form")).toContainText("Add a model");

    await chat.newConversation();
    // 1 000 000 input tokens at $2 and 100 000 output at $10 per million: $3.
    const inspector = await chat.inspectPricedReply(fake, { inputTokens: 1_000_000, outputTokens: 100_000 });
    await expect(inspector.root.getByTestId("attempt-cost")).toHaveAttribute("data-cost", "3");
  } finally {
    // The list prices back, for the specs that cost attempts after this one.
    const restored = await page.request.put(`/api/admin/models/${encodeURIComponent(MODEL)}`, {
      data: { prices: listPrices },
    });
    expect(restored.status(), await restored.text()).toBe(200);
  }
});

test("an earlier policy version: compared with the one in force, restored as a new version", async ({
  page,
}) => {
  await registerWithRole(page, "Restorer", "admin");
  const current = (await (await page.request.get("/api/admin/settings")).json()) as {
    version: number;
    settings: Record<string, unknown>;
  };
  const changed = await page.request.put("/api/admin/settings", {
    data: { settings: { ...current.settings, keyContextReminder: "Speak of tides." } },
  });
  expect(changed.status(), await changed.text()).toBe(200);

  await page.goto("/admin/settings");
  await expect(page.getByTestId("policy-version")).toHaveText(`version ${current.version + 1}`);
  const earlier = page.locator(`[data-testid="policy-version-row"][data-version="${current.version}"]`);
  await earlier.getByTestId("version-compare").click();
  const diff = earlier.getByTestId("version-diff-row");
  await expect(diff).toHaveCount(1);
  await expect(diff).toHaveAttribute("data-key", "keyContextReminder");
  await expect(diff).toContainText("Speak of tides.");

  await earlier.getByTestId("version-restore").click();
  await earlier.getByTestId("version-restore-confirm").click();
  await expect(page.getByTestId("policy-version")).toHaveText(`version ${current.version + 2}`);
  await expect(page.getByTestId("setting-keyContextReminder")).toHaveValue(
    String(current.settings.keyContextReminder ?? ""),
  );
});
