// Reasoning in the chat and the inspector (docs/features.md#reasoning-and-provider-metadata): a reply from a
// model that thought shows a collapsed "Thought for …" above it, which opens to the thoughts (or says the provider
// hid them); the next turn's inspector shows the REASONING item sent back, with the provider's metadata, or, when the
// provider cannot take it back, lists it struck through with the reason; each attempt's usage names its reasoning
// tokens.
import { expect, type Page, test } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { audit } from "./pages/axe-audit";
import { ChatPage, uniqueEmail } from "./pages/chat-page";

const fake = fakeProvidersForSpec();

async function conversationOn(page: Page, modelId: string, theme: "light" | "dark") {
  await page.addInitScript((value) => localStorage.setItem("theme", value), theme);
  const chat = new ChatPage(page);
  await chat.register({ name: "Thinker", email: uniqueEmail("thinker"), password: "correct horse battery" });
  await chat.newConversation();
  await page.getByTestId("model-picker").selectOption(modelId);
  await expect(page.getByTestId("model-id")).toHaveText(modelId);
  return chat;
}

test("Gemini's thoughts: Thought for …, expanded, sent back to Gemini, then struck through when the chat moves to Claude", async ({
  page,
}) => {
  const chat = await conversationOn(page, "google:gemini-2.5-flash", "light");
  const THOUGHT = "The user asks for a plant that survives neglect: a snake plant.";
  await fake.script({
    kind: "text",
    text: "A snake plant.",
    protocol: "gemini",
    reasoning: { text: THOUGHT, durationMs: 1_500 },
    thoughtSignature: "sig-text-e2e",
    usage: { outputTokens: 40, reasoningTokens: 30 },
  });
  await chat.sendAndWait("Which plant survives neglect?");
  const reply = chat.messages("assistant").last();
  await expect(reply.getByTestId("message-text")).toHaveText("A snake plant.");

  // Collapsed: the label only; opened: the thoughts.
  const thought = reply.getByTestId("thought-block");
  await expect(thought.getByTestId("thought-label")).toHaveText(/^Thought for (\d+ s|a moment)$/);
  await expect(thought.getByTestId("thought-text")).toBeHidden();
  await thought.getByTestId("thought-label").click();
  await expect(thought.getByTestId("thought-text")).toHaveText(THOUGHT);
  expect(await audit(page, "chat (thought open, light)")).toEqual([]);

  // The same after a reload (read from the stored reasoning).
  await page.reload();
  const reloaded = chat.messages("assistant").last().getByTestId("thought-block");
  await expect(reloaded.getByTestId("thought-label")).toHaveText(/^Thought for (\d+ s|a moment)$/);

  // The reply's own attempt counts its reasoning tokens.
  let panel = await chat.inspectReply();
  await expect(panel.root.getByTestId("usage-reasoning")).toHaveText("(30 reasoning)");
  // And shows the reasoning it returned.
  await expect(panel.root.getByTestId("attempt-reasoning-text")).toHaveText(THOUGHT);
  await panel.close();

  // The next turn sends the thought back with the signed text it came with (Gemini signs the text, and the thought
  // goes back with its step): its inspector shows the REASONING item and the signed text.
  await fake.script({ kind: "text", text: "Water it monthly.", protocol: "gemini" });
  await chat.sendAndWait("How often do I water it?");
  panel = await chat.inspectReply();
  const reasoningItem = panel.items().filter({ has: page.getByTestId("item-reasoning") });
  await expect(reasoningItem).toHaveAttribute("data-tag", "REASONING");
  await expect(reasoningItem.getByTestId("item-reasoning")).toHaveText(THOUGHT);
  const metadata = panel.root.getByTestId("item-provider-metadata");
  await expect(metadata).toContainText("google.thoughtSignature = sig-text-e2e");
  expect(await audit(page, "inspector (reasoning, light)")).toEqual([]);
  const geminiBody = await panel.exactBody();
  expect(geminiBody).toContain('"thoughtSignature":"sig-text-e2e"');
  expect(geminiBody).toContain(THOUGHT);
  await panel.close();

  // Switched to Claude, the thought cannot go back (Anthropic takes only its own signed thinking): the inspector
  // lists it struck through under the items sent, with the reason, and the body does not hold it.
  await chat.chooseModel("anthropic:claude-haiku-4-5");
  await fake.script({ kind: "text", text: "Monthly is fine.", protocol: "anthropic" });
  await chat.sendAndWait("And in winter?");
  panel = await chat.inspectReply();
  await expect(panel.items().filter({ has: page.getByTestId("item-reasoning") })).toHaveCount(0);
  const dropped = panel.root.getByTestId("dropped-item");
  await expect(dropped).toHaveCount(1);
  await expect(dropped).toHaveAttribute("data-tag", "REASONING");
  await expect(dropped.getByTestId("dropped-item-preview")).toHaveText(THOUGHT);
  await expect(dropped.getByTestId("dropped-item-preview")).toHaveCSS("text-decoration-line", "line-through");
  await expect(dropped.getByTestId("dropped-item-reason")).toContainText(
    /Anthropic takes thinking back only|does not reason/,
  );
  expect(await audit(page, "inspector (reasoning left out, light)")).toEqual([]);
  expect(await panel.exactBody()).not.toContain(THOUGHT);

  // Each attempt on its own page shows the reasoning its model returned: the first reply's, and none for the last.
  await page.goto("/attempts?kind=reply");
  const results = page.getByTestId("attempt-result");
  await expect(results).toHaveCount(3);
  await results.nth(2).getByTestId("attempt-result-open").click();
  const returned = page.getByTestId("attempt-reasoning");
  await expect(returned.getByTestId("attempt-reasoning-text")).toHaveText(THOUGHT);
  await expect(returned.getByTestId("attempt-reasoning-duration")).toHaveText(
    /^Thought for (\d+ s|a moment)$/,
  );
  expect(await audit(page, "attempt page (reasoning, light)")).toEqual([]);
  await page.goBack();
  await results.nth(0).getByTestId("attempt-result-open").click();
  await expect(page.getByTestId("inspector-item").first()).toBeVisible();
  await expect(page.getByTestId("attempt-reasoning")).toHaveCount(0);
});

test("encrypted-only reasoning: the chat says the provider hid it; the inspector shows what goes back", async ({
  page,
}) => {
  const chat = await conversationOn(page, "openai:gpt-5-mini", "dark");
  await fake.script({
    kind: "text",
    text: "Forty-two.",
    protocol: "openai-responses",
    reasoning: { encryptedContent: "gAAAA-e2e-opaque", durationMs: 600 },
  });
  await chat.sendAndWait("What is six times seven?");
  const thought = chat.messages("assistant").last().getByTestId("thought-block");
  await thought.getByTestId("thought-label").click();
  await expect(thought.getByTestId("thought-text")).toHaveText("The reasoning is hidden by the provider.");
  expect(await audit(page, "chat (thought open, dark)")).toEqual([]);

  await chat.sendAndWait("And six times eight?");
  const panel = await chat.inspectReply();
  const reasoningItem = panel.items().filter({ has: page.getByTestId("item-reasoning") });
  await expect(reasoningItem.getByTestId("item-reasoning")).toHaveText(
    "Reasoning hidden by the provider (sent back as it came)",
  );
  await expect(reasoningItem.getByTestId("item-provider-metadata")).toContainText(
    "openai.reasoningEncryptedContent = gAAAA-e2e-opaque",
  );
  expect(await audit(page, "inspector (hidden reasoning, dark)")).toEqual([]);
  expect(await panel.exactBody()).toContain('"encrypted_content":"gAAAA-e2e-opaque"');
});
