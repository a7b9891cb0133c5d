// Each inspector item says where it sits in the bytes the provider received: its JSON Pointers, which mark its
// lines in the raw view when clicked (docs/features.md#wire-reconciliation).
import { expect, test } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { startConversation } from "./pages/chat-page";

const fake = fakeProvidersForSpec();

for (const { modelId, inputPointer } of [
  { modelId: "openai:gpt-4.1-mini", inputPointer: "/messages/1" },
  { modelId: "anthropic:claude-haiku-4-5", inputPointer: "/messages/0/content/0" },
]) {
  test(`${modelId}: an item's address marks its bytes in the raw view`, async ({ page }) => {
    const { chat } = await startConversation(page, "Ada", { modelId });
    await fake.script({ kind: "text", text: "Marked." });
    await chat.sendAndWait("Where do my words sit?");
    const panel = await chat.inspectReply();

    const input = panel
      .items()
      .filter({ has: page.getByTestId("item-text").getByText("Where do my words sit?") });
    await expect(input.getByTestId("item-wire-path")).toHaveCount(1);
    await expect(input.getByTestId("item-wire-path")).toHaveAttribute("data-pointer", inputPointer);
    await expect(input.getByTestId("item-wire-path")).toContainText(inputPointer);
    await expect(panel.root.getByTestId("unclaimed-element")).toHaveCount(0);
    await expect(panel.root.locator('[data-dropped="true"]')).toHaveCount(0);

    await input.getByTestId("item-wire-path").click();
    const mark = panel.root.getByTestId("raw-highlight");
    await expect(mark).toHaveAttribute("data-pointer", inputPointer);
    await expect(mark).toContainText("Where do my words sit?");
    await expect(mark).toBeInViewport();
    // Only that element is marked: the system prompt is outside it.
    await expect(mark).not.toContainText("You are");

    // Back in the payload, the system prompt's address marks the system element instead.
    await panel.showView("payload");
    const system = panel.items().first();
    const systemPointer =
      (await system.getByTestId("item-wire-path").first().getAttribute("data-pointer")) ?? "";
    await system.getByTestId("item-wire-path").first().click();
    await expect(mark).toHaveAttribute("data-pointer", systemPointer);
    await expect(mark).not.toContainText("Where do my words sit?");
  });
}
