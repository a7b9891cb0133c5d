// An attempt keeps the prices it was costed with: an admin changes a model's prices after a reply, and the
// inspector still shows what that reply cost, with its cost at today's prices beside it.
import { expect, test } from "@playwright/test";
import { newModelBody } from "../tests/fixtures/model-body";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { registerWithRole } from "./pages/admin-role";

const fake = fakeProvidersForSpec();

test("a reply's cost stays after its model's prices change; the inspector notes today's", async ({
  page,
}) => {
  const { chat } = await registerWithRole(page, "Ledger", "admin");
  // A model of this spec's own, so no other spec's costs move with its prices.
  const name = `priced-${Date.now().toString(36)}`;
  const modelId = `openai:${name}`;
  const created = await page.request.post("/api/admin/models", {
    data: newModelBody(modelId, {
      provider: "openai",
      providerModelName: name,
      label: "Priced model",
      apiKind: "chat",
      tokenizer: "o200k_base",
      contextWindow: 128_000,
      maxOutputTokens: 4_096,
      prices: { inputPerMillion: 1, cachedInputPerMillion: 0.25, outputPerMillion: 4 },
    }),
  });
  expect(created.status(), await created.text()).toBe(201);

  await chat.newConversation();
  await page.reload();
  await chat.chooseModel(modelId);
  // 1 000 000 input tokens at $1 and 250 000 output at $4 per million: $2.
  let inspector = await chat.inspectPricedReply(fake, { inputTokens: 1_000_000, outputTokens: 250_000 });
  await expect(inspector.root.getByTestId("attempt-cost")).toHaveAttribute("data-cost", "2");
  await expect(inspector.root.getByTestId("attempt-cost-today")).toHaveCount(0);

  const changed = await page.request.put(`/api/admin/models/${encodeURIComponent(modelId)}`, {
    data: { prices: { inputPerMillion: 2, cachedInputPerMillion: 0.5, outputPerMillion: 8 } },
  });
  expect(changed.status(), await changed.text()).toBe(200);
  await page.reload();
  inspector = await chat.inspectReply();
  await expect(inspector.root.getByTestId("attempt-cost")).toHaveAttribute("data-cost", "2");
  await expect(inspector.root.getByTestId("attempt-cost-today")).toHaveText("(at today's prices: $4.00)");
});
