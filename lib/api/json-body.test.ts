// The JSON reader's scenario table: what it takes (and gives back exactly as JSON.parse does), and what it
// refuses, with which status and which words.
import { describe, expect, test } from "vitest";
import { type JsonLimits, parseJsonWithin } from "@/lib/api/json-body";
import { AppError } from "@/lib/domain/errors";
import { unstorableTextProblem } from "@/lib/text-rules";

const LIMITS: JsonLimits = { maxDepth: 8, maxElements: 50, maxStringChars: 20 };

const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${"}".repeat(depth - 1)}`;
const list = (count: number) => `[${Array.from({ length: count }, () => "0").join(",")}]`;

describe("taken, and parsed as JSON.parse parses it", () => {
  const accepted: { name: string; text: string }[] = [
    { name: "an object", text: '{"title":"Tulips","count":3,"done":false,"note":null}' },
    { name: "whitespace of every kind", text: ' \t\r\n{ "a" : [ 1 , 2 ] }\n ' },
    { name: "a bare scalar", text: "42" },
    { name: "a bare string", text: '"hello"' },
    { name: "empty containers", text: '{"a":[],"b":{}}' },
    { name: "numbers in every form", text: "[0,-0,7,-12,3.25,1e3,1E+3,2.5e-3,-0.0e0,1e308]" },
    { name: "every simple escape", text: '"\\" \\\\ \\/ \\b \\f \\n \\r \\t"' },
    { name: "escaped characters", text: '"caf\\u00e9 \\u00E9"' },
    { name: "a pair of escaped surrogates (one emoji)", text: '"\\ud83d\\ude00"' },
    { name: "a pair in upper-case hex", text: '"\\uD83D\\uDE00"' },
    { name: "a raw pair", text: '"\u{1f600}"' },
    { name: "a pair split between a raw and an escaped half", text: '"\ud83d\\ude00"' },
    { name: "a pair in a key", text: '{"\\ud83d\\ude00":1}' },
    { name: "exactly as deep as allowed", text: nested(8) },
    { name: "objects exactly as deep as allowed", text: nestedObjects(8) },
    { name: "exactly as many values as allowed (the list and 49 in it)", text: list(49) },
    { name: "a string exactly as long as allowed", text: `"${"x".repeat(20)}"` },
    { name: "an escaped string as long as allowed once decoded", text: `"${"\\n".repeat(20)}"` },
    { name: "a key exactly as long as allowed", text: `{"${"k".repeat(20)}":1}` },
    { name: "a repeated key (the last one wins, as in JSON.parse)", text: '{"a":1,"a":2}' },
    { name: "a number small enough to round to zero", text: "1e-400" },
  ];
  test.each(accepted)("$name", ({ text }) => {
    expect(parseJsonWithin(text, LIMITS)).toEqual(JSON.parse(text));
  });
});

describe("refused", () => {
  const refused: { name: string; text: string; status: number; code: string; message: RegExp }[] = [
    // too deep: 400
    {
      name: "arrays one level too deep",
      text: nested(9),
      status: 400,
      code: "bad_request",
      message: /nested more than 8 levels deep/,
    },
    {
      name: "objects one level too deep",
      text: nestedObjects(9),
      status: 400,
      code: "bad_request",
      message: /nested more than 8 levels deep/,
    },
    // too many values: 413
    {
      name: "one value too many",
      text: list(50),
      status: 413,
      code: "payload_too_large",
      message: /more than 50 JSON values/,
    },
    {
      name: "values counted in objects too",
      text: `{${Array.from({ length: 50 }, (_, index) => `"k${index}":0`).join(",")}}`,
      status: 413,
      code: "payload_too_large",
      message: /more than 50 JSON values/,
    },
    // too long: 413
    {
      name: "a string one character too long",
      text: `{"note":"${"x".repeat(21)}"}`,
      status: 413,
      code: "payload_too_large",
      message: /^note: text is longer than 20 characters/,
    },
    {
      name: "an escaped string too long once decoded",
      text: `["${"\\u0041".repeat(21)}"]`,
      status: 413,
      code: "payload_too_large",
      message: /^0: text is longer than 20 characters/,
    },
    {
      name: "a key too long",
      text: `{"${"k".repeat(21)}":1}`,
      status: 413,
      code: "payload_too_large",
      message: /a key is longer than 20 characters/,
    },
    // NUL: 400
    {
      name: "NUL in a string",
      text: '{"title":"a\\u0000b"}',
      status: 400,
      code: "bad_request",
      message: /^title: text must not contain NUL/,
    },
    {
      name: "NUL deep inside, with the path",
      text: '{"extra":{"list":["fine","bad\\u0000"]}}',
      status: 400,
      code: "bad_request",
      message: /^extra\.list\.1: text must not contain NUL/,
    },
    {
      name: "NUL in a key",
      text: '{"ok":{"ti\\u0000tle":"x"}}',
      status: 400,
      code: "bad_request",
      message: /^ok\.ti\\u0000: a key must not contain NUL/,
    },
    {
      name: "raw NUL (a control character JSON never allows raw)",
      text: '["a\u0000"]',
      status: 400,
      code: "invalid_json",
      message: /not valid JSON/,
    },
    // lone surrogates: 400
    {
      name: "an escaped lone high surrogate",
      text: '{"text":"\\ud800"}',
      status: 400,
      code: "bad_request",
      message: /^text: text must not contain a lone surrogate/,
    },
    {
      name: "an escaped lone low surrogate",
      text: '{"text":"\\udc00"}',
      status: 400,
      code: "bad_request",
      message: /^text: text must not contain a lone surrogate/,
    },
    {
      name: "a high surrogate followed by a plain character",
      text: '{"text":"\\ud83dx"}',
      status: 400,
      code: "bad_request",
      message: /lone surrogate/,
    },
    {
      name: "a high surrogate followed by an escaped plain character",
      text: '{"text":"\\ud83d\\u0041"}',
      status: 400,
      code: "bad_request",
      message: /lone surrogate/,
    },
    {
      name: "a high surrogate followed by an escape",
      text: '{"text":"\\ud83d\\n"}',
      status: 400,
      code: "bad_request",
      message: /lone surrogate/,
    },
    {
      name: "two high surrogates",
      text: '{"text":"\\ud83d\\ud83d"}',
      status: 400,
      code: "bad_request",
      message: /lone surrogate/,
    },
    {
      name: "a pair the wrong way round",
      text: '{"text":"\\ude00\\ud83d"}',
      status: 400,
      code: "bad_request",
      message: /lone surrogate/,
    },
    {
      name: "a raw lone surrogate",
      text: '{"text":"\ud800"}',
      status: 400,
      code: "bad_request",
      message: /lone surrogate/,
    },
    {
      name: "a lone surrogate in a key, shown escaped",
      text: '{"k\\ud800":1}',
      status: 400,
      code: "bad_request",
      message: /^k\\ud800: a key must not contain a lone surrogate/,
    },
    {
      name: "a lone surrogate in an array in an object",
      text: '{"parts":[{"text":"ok"},{"text":"\\udfff"}]}',
      status: 400,
      code: "bad_request",
      message: /^parts\.1\.text: text must not/,
    },
    // numbers: 400
    {
      name: "a number too large to be one",
      text: '{"n":1e400}',
      status: 400,
      code: "bad_request",
      message: /^n: the number 1e400 is too large/,
    },
    { name: "a leading zero", text: "[01]", status: 400, code: "invalid_json", message: /not valid JSON/ },
    { name: "a leading plus", text: "[+1]", status: 400, code: "invalid_json", message: /not valid JSON/ },
    { name: "a bare minus", text: "[-]", status: 400, code: "invalid_json", message: /not valid JSON/ },
    { name: "a trailing dot", text: "[1.]", status: 400, code: "invalid_json", message: /not valid JSON/ },
    { name: "a leading dot", text: "[.5]", status: 400, code: "invalid_json", message: /not valid JSON/ },
    {
      name: "an exponent with no digits",
      text: "[1e]",
      status: 400,
      code: "invalid_json",
      message: /not valid JSON/,
    },
    { name: "NaN", text: "[NaN]", status: 400, code: "invalid_json", message: /not valid JSON/ },
    { name: "Infinity", text: "[Infinity]", status: 400, code: "invalid_json", message: /not valid JSON/ },
    { name: "hex", text: "[0x10]", status: 400, code: "invalid_json", message: /not valid JSON/ },
    // text that is not JSON: 400
    {
      name: "nothing",
      text: "",
      status: 400,
      code: "invalid_json",
      message: /not valid JSON: it ends too soon/,
    },
    { name: "only whitespace", text: "  \n", status: 400, code: "invalid_json", message: /not valid JSON/ },
    {
      name: "an unclosed object",
      text: '{"a":1',
      status: 400,
      code: "invalid_json",
      message: /it ends too soon/,
    },
    {
      name: "an unclosed string",
      text: '{"a":"b',
      status: 400,
      code: "invalid_json",
      message: /it ends too soon/,
    },
    {
      name: "a trailing comma",
      text: "[1,]",
      status: 400,
      code: "invalid_json",
      message: /unexpected "]" at character 4/,
    },
    {
      name: "a missing colon",
      text: '{"a" 1}',
      status: 400,
      code: "invalid_json",
      message: /not valid JSON/,
    },
    {
      name: "a key that is not a string",
      text: "{a:1}",
      status: 400,
      code: "invalid_json",
      message: /not valid JSON/,
    },
    { name: "single quotes", text: "{'a':1}", status: 400, code: "invalid_json", message: /not valid JSON/ },
    {
      name: "a mismatched bracket",
      text: "[1}",
      status: 400,
      code: "invalid_json",
      message: /not valid JSON/,
    },
    {
      name: "text after the value",
      text: '{"a":1} {"b":2}',
      status: 400,
      code: "invalid_json",
      message: /unexpected "\{" at character 9/,
    },
    {
      name: "an unknown escape",
      text: '"\\x41"',
      status: 400,
      code: "invalid_json",
      message: /not valid JSON/,
    },
    {
      name: "a short unicode escape",
      text: '"\\u12"',
      status: 400,
      code: "invalid_json",
      message: /not valid JSON/,
    },
    {
      name: "a raw line break in a string",
      text: '"a\nb"',
      status: 400,
      code: "invalid_json",
      message: /not valid JSON/,
    },
    {
      name: "a misspelt literal",
      text: "[tru]",
      status: 400,
      code: "invalid_json",
      message: /not valid JSON/,
    },
    {
      name: "a comment",
      text: "[1 /* one */]",
      status: 400,
      code: "invalid_json",
      message: /not valid JSON/,
    },
    {
      name: "a byte-order mark",
      text: "\ufeff{}",
      status: 400,
      code: "invalid_json",
      message: /not valid JSON/,
    },
  ];
  test.each(refused)("$name: $status $code", ({ text, status, code, message }) => {
    let thrown: unknown;
    try {
      parseJsonWithin(text, LIMITS);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    const error = thrown as AppError;
    expect({ status: error.status, code: error.code }).toEqual({ status, code });
    expect(error.message).toMatch(message);
    // The message itself is text any client (and Postgres, when logged) can hold.
    expect(unstorableTextProblem(error.message)).toBeNull();
  });

  test("whatever JSON.parse refuses, the reader refuses too (no text reaches JSON.parse that fails it)", () => {
    const samples = [
      "{",
      "}",
      "[,]",
      '{"a":}',
      '{"a"}',
      "[1 2]",
      '"\\u00G0"',
      "-01",
      "1.e5",
      "[true false]",
      '{"a":1,}',
      "nul",
    ];
    for (const text of samples) {
      expect(() => JSON.parse(text)).toThrow();
      expect(() => parseJsonWithin(text, LIMITS)).toThrow(AppError);
    }
  });
});

describe("cost", () => {
  test("a body far over the value cap is refused at the cap, not after reading it all", () => {
    const limits = { ...LIMITS, maxDepth: 64, maxElements: 1_000 };
    const huge = `${'{"a":'.repeat(60)}[${"0,".repeat(3_000_000)}0]${"}".repeat(60)}`;
    const started = performance.now();
    expect(() => parseJsonWithin(huge, limits)).toThrow(/more than 1000 JSON values/);
    // The cap is reached within the first few kilobytes of six megabytes (the bound is loose for a busy machine:
    // reading it all and parsing it takes seconds).
    expect(performance.now() - started).toBeLessThan(500);
  });

  test("a long string is read in linear time", () => {
    const limits = { ...LIMITS, maxStringChars: 20_000_000 };
    const text = `{"blob":"${"QUJD".repeat(1_000_000)}"}`;
    const started = performance.now();
    expect(parseJsonWithin(text, limits)).toEqual({ blob: "QUJD".repeat(1_000_000) });
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
