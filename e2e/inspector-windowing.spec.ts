// The inspector's item list is windowed (only the cards near the viewport are in the DOM) and every card is
// measured: across 1 000 items of mixed heights, the rendered cards never overlap and never leave a gap, at the
// top, in the middle and at the end of the list.
import { expect, type Locator, type Page, test } from "@playwright/test";
import postgres from "postgres";
import { startConversation } from "./pages/chat-page";

const databaseUrl = process.env.E2E_DATABASE_URL;
test.skip(!databaseUrl, "needs E2E_DATABASE_URL (Postgres) to seed 1 000 messages");

const MESSAGES = 1_000;
/** The space between cards (VirtualList's gap). */
const GAP = 8;

/** 1 000 alternating user and persona messages of 1 to 9 lines, straight into the database. */
async function seedMessages(conversationId: string) {
  const sql = postgres(databaseUrl as string, { max: 1, onnotice: () => {} });
  try {
    await sql`
      insert into messages (id, "conversationId", seq, "authorType", "authorUserId", "authorPersonaId", "authorName", parts, status)
      select gen_random_uuid(), c.id, g,
        case when g % 2 = 1 then 'user' else 'persona' end,
        case when g % 2 = 1 then c."ownerId" end,
        case when g % 2 = 0 then c."personaId" end,
        case when g % 2 = 1 then 'Ada' else 'Guide' end,
        jsonb_build_array(jsonb_build_object('type', 'text', 'text',
          rtrim(repeat('Message ' || g || ', a line of text.' || chr(10), 1 + (g * 7) % 9), chr(10)))),
        'complete'
      from conversations c, generate_series(1, ${MESSAGES}) g
      where c.id = ${conversationId}`;
    // The next message's seq follows the last stored one: history is what comes before it.
    await sql`update conversations set "lastSeq" = ${MESSAGES} where id = ${conversationId}`;
  } finally {
    await sql.end();
  }
}

/** The rendered cards' boxes in list order (by their position number). */
async function cardBoxes(items: Locator) {
  return items.evaluateAll((cards) =>
    cards
      .map((card) => {
        const box = card.getBoundingClientRect();
        const position = Number(
          card.querySelector('[data-testid="item-position"]')?.textContent?.replace("#", "") ?? "0",
        );
        return { position, top: box.top, bottom: box.bottom, height: box.height };
      })
      .sort((a, b) => a.position - b.position),
  );
}

async function scrollListTo(page: Page, body: Locator, fraction: number) {
  await body.evaluate((element, share) => {
    element.scrollTop = (element.scrollHeight - element.clientHeight) * share;
  }, fraction);
  // Let the rows render, be measured and be laid out again.
  await page.evaluate(
    () =>
      new Promise((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 150))),
      ),
  );
}

function expectContiguous(boxes: Awaited<ReturnType<typeof cardBoxes>>) {
  expect(boxes.length).toBeGreaterThan(2);
  for (let index = 1; index < boxes.length; index += 1) {
    const previous = boxes[index - 1];
    const current = boxes[index];
    expect(current.position, "consecutive cards").toBe(previous.position + 1);
    // No overlap and no gap: each card starts exactly one gap below the previous one's bottom.
    expect(
      Math.abs(current.top - previous.bottom - GAP),
      `card #${current.position} starts ${current.top - previous.bottom}px below #${previous.position}`,
    ).toBeLessThan(1);
  }
}

test("1 000 items of mixed heights: windowed, measured, no overlap and no gap anywhere in the list", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { chat, conversationId } = await startConversation(page, "Ada", { emailPrefix: "window" });
  await chat.overrideSettings(conversationId, { history: { messageFetchLimit: 10_000 } });
  await seedMessages(conversationId);
  await page.reload();

  const panel = await chat.openPreview();
  const list = panel.root.getByTestId("inspector-items");
  await expect(list).toHaveAttribute("data-virtualised", "true");
  // The system prompt, the 1 000 messages and the next input.
  await expect(panel.root.getByTestId("tab-payload")).toHaveText(`Payload · ${MESSAGES + 2} items`);
  const items = panel.items();
  const heights = new Set<number>();
  const body = panel.root.getByTestId("inspector-body");
  for (const fraction of [0, 0.25, 0.5, 0.75, 1]) {
    await scrollListTo(page, body, fraction);
    const boxes = await cardBoxes(items);
    // Windowed: a viewport's worth of cards, not a thousand.
    expect(boxes.length).toBeLessThan(60);
    expectContiguous(boxes);
    for (const box of boxes) heights.add(Math.round(box.height));
  }
  // The heights really were mixed.
  expect(heights.size).toBeGreaterThan(3);
  // The end of the list is the next input, in view.
  const last = panel.root.locator('[data-testid="inspector-item"][data-tag="CURRENT_INPUT"]');
  await expect(last).toBeInViewport();
  await expect(last.getByTestId("item-position")).toHaveText(`#${MESSAGES + 2}`);

  // The raw request of the same payload, pretty-printed, is thousands of lines: windowed too, line after line.
  await panel.showView("raw");
  const raw = panel.root.getByTestId("raw-body");
  await expect(raw).toHaveAttribute("data-windowed", "true");
  const lineCount = Number(await raw.getAttribute("data-lines"));
  expect(lineCount).toBeGreaterThan(3 * MESSAGES);
  for (const fraction of [0, 0.5, 1]) {
    await scrollListTo(page, body, fraction);
    const lines = await raw.locator("[data-index]").evaluateAll((rows) =>
      rows
        .map((row) => ({ index: Number(row.getAttribute("data-index")), box: row.getBoundingClientRect() }))
        .sort((a, b) => a.index - b.index)
        .map(({ index, box }) => ({ index, top: box.top, bottom: box.bottom })),
    );
    expect(lines.length).toBeGreaterThan(20);
    expect(lines.length).toBeLessThan(400);
    for (let index = 1; index < lines.length; index += 1) {
      expect(lines[index].index).toBe(lines[index - 1].index + 1);
      expect(Math.abs(lines[index].top - lines[index - 1].bottom)).toBeLessThan(1);
    }
  }
});
