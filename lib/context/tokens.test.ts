import { describe, expect, test } from "vitest";
import {
  countItemTokens,
  countTextTokens,
  recentCountsSize,
  TOKENS_PER_IMAGE,
  TOKENS_PER_MESSAGE,
} from "./tokens";

describe("token counting", () => {
  test.each([
    ["o200k_base", "Hello, world!", 4],
    ["cl100k_base", "Hello, world!", 4],
    ["estimate", "Hello, world!", 4],
    ["o200k_base", "", 0],
  ] as const)("%s counts %j as %i", (tokenizer, text, expected) => {
    expect(countTextTokens(text, tokenizer)).toBe(expected);
  });

  test.each(["o200k_base", "cl100k_base"] as const)(
    "%s counts special-token text as plain text, never throws",
    (tokenizer) => {
      const count = countTextTokens("before <|endoftext|> after <|im_start|>", tokenizer);
      expect(count).toBeGreaterThan(5);
    },
  );

  test("an item costs its parts plus the per-message framing", () => {
    const item = {
      parts: [
        { type: "text" as const, text: "Hello, world!" },
        {
          type: "image" as const,
          mediaType: "image/png",
          url: "data:",
          attachmentId: "a",
          handle: "media_1",
        },
      ],
    };
    expect(countItemTokens(item, "o200k_base")).toBe(TOKENS_PER_MESSAGE + 4 + TOKENS_PER_IMAGE);
  });
});

describe("counts of recent texts", () => {
  /** A text of 200 words (about 1 400 characters) that no other test counts, different for each `seed`. */
  function longText(seed: number): string {
    const word = (index: number) => `w${(seed * 7919 + index * 104729) % 100_003}`;
    return Array.from({ length: 200 }, (_, index) => word(index)).join(" ");
  }

  test.each(["o200k_base", "cl100k_base"] as const)(
    "%s: a text counted again has the same count, and a different text its own",
    (tokenizer) => {
      const text = longText(1);
      const first = countTextTokens(text, tokenizer);
      expect(countTextTokens(text, tokenizer)).toBe(first);
      // An equal text built anew (another string object) is looked up by its content.
      expect(countTextTokens([...text].join(""), tokenizer)).toBe(first);
      const longer = `${text} and one more sentence at the end.`;
      expect(countTextTokens(longer, tokenizer)).toBeGreaterThan(first);
      expect(countTextTokens(text, tokenizer)).toBe(first);
    },
  );

  test("the texts kept never exceed a million characters, however many are counted", () => {
    // 1 000 texts of about 1 400 characters: well past the bound in all.
    for (let seed = 10; seed < 1_010; seed += 1) countTextTokens(longText(seed), "o200k_base");
    const { o200k_base } = recentCountsSize();
    expect(o200k_base).toBeGreaterThan(900_000);
    expect(o200k_base).toBeLessThanOrEqual(1_000_000);
  });
});
