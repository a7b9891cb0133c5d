import { describe, expect, test } from "vitest";
import { hasVisibleCharacter, unstorableTextProblem } from "./text-rules";

describe("hasVisibleCharacter", () => {
  const cases: Array<{ name: string; text: string; visible: boolean }> = [
    { name: "empty", text: "", visible: false },
    { name: "spaces, tabs and newlines", text: " \t\n\r ", visible: false },
    { name: "no-break and ideographic spaces", text: "\u00a0\u3000\u2003", visible: false },
    { name: "zero-width space, non-joiner, joiner", text: "\u200b\u200c\u200d", visible: false },
    { name: "word joiner and BOM", text: "\u2060\ufeff", visible: false },
    { name: "bidi marks and isolates", text: "\u200e\u200f\u202e\u2066\u2069", visible: false },
    { name: "soft hyphen", text: "\u00ad", visible: false },
    { name: "control characters", text: "\u0001\u001f\u007f\u0085", visible: false },
    { name: "Hangul fillers", text: "\u3164\u115f\u1160\uffa0", visible: false },
    { name: "variation selectors and tag characters", text: "\ufe0f\u{e0041}\u{e007f}", visible: false },
    { name: "blank Braille pattern", text: "\u2800", visible: false },
    { name: "a lone surrogate", text: "\ud800", visible: false },
    { name: "a letter among zero-width spaces", text: "\u200ba\u200b", visible: true },
    { name: "a word", text: "Plans", visible: true },
    { name: "an emoji with a variation selector", text: "\u2764\ufe0f", visible: true },
    { name: "a joined emoji family", text: "\u{1f468}\u200d\u{1f469}\u200d\u{1f467}", visible: true },
    { name: "CJK", text: "計画", visible: true },
    { name: "a single dot", text: ".", visible: true },
  ];
  test.each(cases)("$name → $visible", ({ text, visible }) => {
    expect(hasVisibleCharacter(text)).toBe(visible);
  });
});

describe("unstorableTextProblem", () => {
  const cases: { name: string; text: string; problem: RegExp | null }[] = [
    { name: "plain text", text: "Tulips in spring", problem: null },
    { name: "a surrogate pair", text: "smile \u{1f600}", problem: null },
    { name: "NUL", text: "a\u0000b", problem: /NUL/ },
    { name: "a lone high surrogate", text: "a\ud800b", problem: /lone surrogate/ },
    { name: "a lone high surrogate at the end", text: "a\ud800", problem: /lone surrogate/ },
    { name: "a lone low surrogate", text: "\udc00a", problem: /lone surrogate/ },
    { name: "a pair the wrong way round", text: "\ude00\ud83d", problem: /lone surrogate/ },
    { name: "two high surrogates, then a low one", text: "\ud800\ud800\udc00", problem: /lone surrogate/ },
  ];
  test.each(cases)("$name", ({ text, problem }) => {
    const found = unstorableTextProblem(text);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toMatch(problem);
  });
});
