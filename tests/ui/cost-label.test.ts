// An attempt's cost as the inspector labels it: at the prices it was made with, and, when the model's prices have
// changed since, what it would cost at today's.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { CostLabel, CostToday } from "@/components/inspector/cost-label";

const cost = (totalUsd: number, estimated?: true) => ({
  inputUsd: totalUsd / 2,
  cachedInputUsd: 0,
  cacheWriteUsd: 0,
  outputUsd: totalUsd / 2,
  totalUsd,
  ...(estimated ? { estimated } : {}),
});

/** The rendered text, tags dropped and entities read. */
const text = (html: string) => html.replace(/<[^>]+>/g, "").replaceAll("&#x27;", "'");

describe("an attempt's cost and today's", () => {
  test.each([
    { name: "reported", today: cost(0.0042), words: "(at today's prices: $0.0042)" },
    { name: "estimated", today: cost(0.5, true), words: "(at today's prices: ≈ $0.5)" },
    { name: "a dollar and more", today: cost(12.5), words: "(at today's prices: $12.50)" },
  ])("$name", ({ today, words }) => {
    const html = renderToStaticMarkup(createElement(CostToday, { cost: today }));
    expect(text(html)).toBe(words);
    expect(html).toContain(`data-cost="${today.totalUsd}"`);
  });

  test("the cost itself stays the recorded one beside it", () => {
    const html = renderToStaticMarkup(
      createElement(CostLabel, { cost: cost(0.002), testId: "attempt-cost" }),
    );
    expect(text(html)).toBe("$0.002");
  });
});
