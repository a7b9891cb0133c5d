// Prompt caching, seen by a person: two turns with a Claude model against the fake Anthropic. The second reply's
// inspector says what the provider read from and wrote to its cache and which breakpoints were sent, marks the
// items that carry one, gives the conversation's cache hit ratio, and in the diff sets the reads against the
// prefix that stayed unchanged.
import { expect, test } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { startConversation } from "./pages/chat-page";

const fake = fakeProvidersForSpec();

test("two turns with Claude: the inspector shows the cache reads, writes, breakpoints and hit ratio", async ({
  page,
}) => {
  const { chat } = await startConversation(page, "Cacher", { modelId: "anthropic:claude-sonnet-4-5" });

  await fake.script({ kind: "text", text: "First answer from Claude.", protocol: "anthropic" });
  await chat.sendAndWait("First question");
  await fake.script({ kind: "text", text: "Second answer from Claude.", protocol: "anthropic" });
  await chat.sendAndWait("Second question");

  const requests = await fake.requests("anthropic");
  expect(requests).toHaveLength(2);
  const second = JSON.parse(requests[1].body);
  expect(second.system.at(-1).cache_control).toEqual({ type: "ephemeral" });

  const panel = await chat.inspectReply();
  const cache = panel.root.getByTestId("attempt-cache");
  // Turn 2 read the system prefix turn 1 wrote, and wrote the history up to its new breakpoint.
  const read = Number(await cache.getAttribute("data-cache-read"));
  const written = Number(await cache.getAttribute("data-cache-written"));
  expect(read).toBeGreaterThan(0);
  expect(written).toBeGreaterThan(0);
  await expect(cache).toHaveText(
    `cache: ${read.toLocaleString("en-US")} read, ${written.toLocaleString("en-US")} written; 2 breakpoints: after the system block, after the history`,
  );
  await expect(panel.root.getByTestId("conversation-cache-ratio")).toContainText(
    "Conversation cache hit ratio",
  );

  const chips = panel.root.getByTestId("cache-breakpoint-chip");
  await expect(chips).toHaveText([
    "cache breakpoint · after the system block",
    "cache breakpoint · after the history",
  ]);
  await expect(
    panel.root.locator('[data-testid="inspector-item"]', { has: page.getByTestId("cache-breakpoint-chip") }),
  ).toHaveCount(2);

  // The diff sets the provider's reads against the prefix the payload kept since turn 1.
  await panel.showView("diff");
  const agreement = panel.root.getByTestId("cache-agreement");
  await expect(agreement).toContainText(`The provider read ${read.toLocaleString("en-US")} cached tokens`);
});
