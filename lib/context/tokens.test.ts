import { describe, expect, test } from "vitest";
import { countItemTokens, countTextTokens, TOKENS_PER_IMAGE, TOKENS_PER_MESSAGE } from "./tokens";

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
