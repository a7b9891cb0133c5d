// Replay from the inspector: a reply's attempt sent again shows the original and the replay side by side (reply,
// tokens, cost, latency, payload diff), the provider receives the same bytes, and the replay is listed with its kind.
import { expect, test } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { startConversation } from "./pages/chat-page";

const fake = fakeProvidersForSpec();

test("Replay in the inspector: both replies side by side, the same body sent again", async ({ page }) => {
  const { chat } = await startConversation(page, "Ada");
  await chat.askScripted(fake, "How deep should tulips be planted?", "Plant tulips 15 cm deep.");

  const panel = await chat.inspectReply();
  const replay = panel.root.getByTestId("replay-panel");
  await replay.locator("summary").click();
  await fake.script({ kind: "text", text: "About three bulbs deep." });
  await replay.getByTestId("replay-button").click();

  const original = replay.getByTestId("replay-original");
  const result = replay.getByTestId("replay-result");
  await expect(original.getByTestId("replay-column-reply")).toHaveText("Plant tulips 15 cm deep.");
  await expect(result.getByTestId("replay-column-reply")).toHaveText("About three bulbs deep.");
  // The default persona answers with OpenAI's model when its key is set, as it is against the fake providers.
  await expect(original.getByTestId("replay-column-model")).toHaveText("openai:gpt-4.1-mini");
  await expect(result.getByTestId("replay-column-model")).toHaveText("openai:gpt-4.1-mini");
  await expect(result.getByTestId("replay-column-tokens")).toHaveText(/^\d+ \/ \d+$/);
  await expect(result.getByTestId("replay-column-latency")).not.toHaveText("");
  // Nothing changed: the diff finds every item the same, and the provider received the same bytes twice.
  const diff = replay.getByTestId("payload-diff");
  for (const change of ["added", "removed", "changed", "moved"]) {
    await expect(diff.getByTestId(`diff-count-${change}`)).toHaveAttribute("data-count", "0");
  }
  const [first, second] = await fake.requests("openai-chat");
  expect(second.body).toBe(first.body);

  // The replay is one of the conversation's other model calls, never a message.
  const list = panel.root.getByTestId("other-model-calls");
  await list.locator("summary").click();
  await expect(list.locator('[data-testid="other-model-call"][data-kind="replay"]')).toHaveCount(1);
  await expect(chat.messages("assistant")).toHaveCount(1);
});
