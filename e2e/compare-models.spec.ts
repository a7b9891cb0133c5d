// Compare models on a turn: the latest reply's "Compare" runs the turn on two models, their answers show side by
// side, each labelled with its model; "Use this answer" on the second makes it what the next turn sends.
import { expect, test } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { startConversation } from "./pages/chat-page";

const fake = fakeProvidersForSpec();

const GEMINI = "google:gemini-2.5-flash";
const OPENAI = "openai:gpt-4.1-mini";

test("compare two models on a reply, use the second answer, and the next turn sends it", async ({ page }) => {
  const { chat } = await startConversation(page, "Comparer");
  await chat.askScripted(fake, "Name a colour.", "Blue.");

  await fake.script([
    { kind: "text", text: "Gemini says green.", protocol: "gemini" },
    { kind: "text", text: "OpenAI says red.", protocol: "openai-chat" },
  ]);
  const reply = chat.messages("assistant").last();
  await reply.getByTestId("compare-picker").locator("summary").click();
  await reply.locator(`[data-testid="compare-model-option"][value="${GEMINI}"]`).check();
  await reply.locator(`[data-testid="compare-model-option"][value="${OPENAI}"]`).check();
  await reply.getByTestId("compare-run").click();

  const panel = page.getByTestId("compare-panel");
  await expect(panel).toHaveAttribute("data-running", "false");
  const answers = panel.getByTestId("compare-answer");
  await expect(answers.getByTestId("compare-model")).toHaveText([GEMINI, OPENAI]);
  await expect(answers.getByTestId("compare-text")).toHaveText(["Gemini says green.", "OpenAI says red."]);
  // Side by side on a desktop-wide page: the two columns share a row.
  const [first, second] = [await answers.nth(0).boundingBox(), await answers.nth(1).boundingBox()];
  expect(first && second && second.x > first.x && Math.abs(second.y - first.y) < 2).toBe(true);
  // On a phone-wide page they stack, the second under the first.
  const desktop = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect
    .poll(async () => {
      const [top, bottom] = [await answers.nth(0).boundingBox(), await answers.nth(1).boundingBox()];
      return top && bottom && bottom.y > top.y + top.height - 1 && Math.abs(bottom.x - top.x) < 2;
    })
    .toBe(true);
  if (desktop) await page.setViewportSize(desktop);
  // Comparing changed nothing yet: the reply shown is the one from before.
  await expect(reply.getByTestId("message-text")).toHaveText("Blue.");

  await answers.nth(1).getByTestId("compare-use").click();
  await expect(panel).toHaveCount(0);
  await expect(chat.messages("assistant").last().getByTestId("message-text")).toHaveText("OpenAI says red.");
  await expect(chat.messages("assistant").last().getByTestId("variant-position")).toHaveText("3 / 3");

  await chat.askScripted(fake, "And another?", "Yellow.");
  const requests = await fake.requests();
  expect(requests.map((request) => request.model)).toEqual([
    "gpt-4.1-mini",
    "gemini-2.5-flash",
    "gpt-4.1-mini",
    "gpt-4.1-mini",
  ]);
  const lastBody = requests.at(-1)?.body ?? "";
  expect(lastBody).toContain("OpenAI says red.");
  expect(lastBody).not.toContain("Gemini says green.");
  expect(lastBody).not.toContain("Blue.");
});
