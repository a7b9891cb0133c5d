// The lab in the browser (docs/lab.md): two conversations ticked in the sidebar's select mode and saved as a
// dataset, a dry experiment with a context note as the candidate, its results (every row adds the note, nothing
// sent to the model), sorted by a column, and one row's payload diff opened.
import { expect, test } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { signUp } from "./pages/chat-page";

const fake = fakeProvidersForSpec();

test("a dataset from the sidebar, a dry experiment, one row's diff", async ({ page }) => {
  const { chat } = await signUp(page, "Lab User", "lab");
  const ids: string[] = [];
  for (const question of ["Where do foxes live?", "What do owls eat?"]) {
    ids.push(await chat.newConversation());
    await chat.askScripted(fake, question, "In many places.");
  }
  const sentBefore = (await fake.requests()).length;

  await page.getByTestId("sidebar-select").click();
  for (const id of ids) {
    await page.locator(`[data-testid="conversation-select"][data-conversation-id="${id}"]`).check();
  }
  await page.getByTestId("dataset-name").fill("Animals");
  await expect(page.getByTestId("save-dataset")).toContainText("(2)");
  await page.getByTestId("save-dataset").click();
  await expect(page).toHaveURL(/\/datasets\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("dataset-size")).toHaveText("2 conversations");

  await page
    .getByTestId("experiment-settings")
    .fill(JSON.stringify({ contextNote: { text: "Mind the fox.", depth: 0 } }));
  await page.getByTestId("experiment-start").click();
  await expect(page).toHaveURL(/\/experiments\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("experiment-status")).toHaveAttribute("data-status", "done");
  await expect(page.getByTestId("experiment-status")).toContainText("2 of 2 conversations");
  const rows = page.getByTestId("experiment-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.locator('[data-column="added"]')).toHaveText(["1", "1"]);
  await expect(page.getByTestId("export-csv")).toHaveAttribute("href", /format=csv$/);

  // Sorted by the candidate's tokens, largest first, then back.
  await page.getByTestId("sort-candidateTokens").click();
  await expect(page.getByTestId("sort-candidateTokens")).toContainText("↓");
  const tokens = await rows.locator('[data-column="candidateTokens"]').allTextContents();
  const numbers = tokens.map((text) => Number(text.replaceAll(",", "")));
  expect(numbers).toEqual([...numbers].sort((a, b) => b - a));

  await rows.first().getByTestId("experiment-row-diff").click();
  const diff = page.getByTestId("experiment-row-detail").getByTestId("payload-diff");
  await expect(diff.getByTestId("diff-count-added")).toHaveAttribute("data-count", "1");
  await expect(diff.getByTestId("diff-count-removed")).toHaveAttribute("data-count", "0");
  await expect(diff).toContainText("Mind the fox.");
  // Dry: the model was sent nothing.
  expect((await fake.requests()).length).toBe(sentBefore);
});
