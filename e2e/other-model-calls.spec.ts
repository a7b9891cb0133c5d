// Model calls that answer no turn open in the same inspector: the title written after the first reply is listed
// under "Other model calls" with its kind, and opening it shows the items it sent, with their tokens, and the exact
// request it recorded.
import { expect, test } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { startConversation } from "./pages/chat-page";

// Each test starts with the fake providers cleared (the title model answers from its default script).
fakeProvidersForSpec();

interface OtherCall {
  id: string;
  kind: string;
  modelId: string;
  requests: { body: string }[];
}

test("the title's model call is listed with its kind and opens with its recorded request", async ({
  page,
}) => {
  const { chat, conversationId } = await startConversation(page, "Ada");
  const otherCalls = async () =>
    (await chat.getJson<{ otherCalls: OtherCall[] }>(`/api/conversations/${conversationId}/turns`))
      .otherCalls;
  await chat.sendAndWait("How do I keep basil alive indoors?");

  // The title is written after the reply (by the offline model in these runs), and recorded then.
  await expect.poll(async () => (await otherCalls()).map((call) => call.kind)).toEqual(["title"]);
  const [titleCall] = await otherCalls();
  await page.reload();

  const panel = await chat.inspectReply();
  const list = panel.root.getByTestId("other-model-calls");
  await list.locator("summary").click();
  const entry = list.getByTestId("other-model-call");
  await expect(entry).toHaveCount(1);
  await expect(entry).toHaveAttribute("data-kind", "title");
  await expect(entry.getByTestId("call-kind")).toHaveText("title");
  await entry.click();

  await expect(panel.root.getByTestId("attempt-kind")).toHaveText("title call");
  await expect(panel.root.getByTestId("attempt-model")).toHaveText(titleCall.modelId);
  // Its items are what the call sent (the offline model's "request" is the call it was given), with their tokens.
  const sent = JSON.parse(titleCall.requests[0].body) as { instructions: string; prompt: string };
  await expect(panel.root.getByTestId("tab-payload")).toHaveText("Payload · 2 items");
  expect(await panel.itemSummaries()).toEqual([
    { id: "call:instructions", tag: "SYSTEM_PROMPT", role: "system", text: sent.instructions },
    { id: "call:prompt", tag: "CURRENT_INPUT", role: "user", text: sent.prompt },
  ]);
  for (const tokens of await panel.items().getByTestId("item-tokens").allTextContents())
    expect(tokens).toMatch(/^[1-9][\d,]* tok$/);
  expect(await panel.exactBody()).toBe(titleCall.requests[0].body);
  expect(titleCall.requests[0].body).toContain("How do I keep basil alive indoors?");
});
