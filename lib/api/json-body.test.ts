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

type Refusal = { name: string; text: string; status: number; code: string; message: RegExp };
// Each refusal kind has one status and code; a row names only what differs.
const refusedAs =
  (status: number, code: string) =>
  (name: string, text: string, message: RegExp): Refusal => ({ name, text, status, code, message });
const badRequest = refusedAs(400, "bad_request");
const tooLarge = refusedAs(413, "payload_too_large");
const invalidJson = refusedAs(400, "invalid_json");
const notJson = (name: string, text: string, message = /not valid JSON/) => invalidJson(name, text, message);

describe("refused", () => {
  const refused: Refusal[] = [
    // too deep: 400
    badRequest("arrays one level too deep", nested(9), /nested more than 8 levels deep/),
    badRequest("objects one level too deep", nestedObjects(9), /nested more than 8 levels deep/),
    // too many values: 413
    tooLarge("one value too many", list(50), /more than 50 JSON values/),
    tooLarge(
      "values counted in objects too",
      `{${Array.from({ length: 50 }, (_, index) => `"k${index}":0`).join(",")}}`,
      /more than 50 JSON values/,
    ),
    // too long: 413
    tooLarge(
      "a string one character too long",
      `{"note":"${"x".repeat(21)}"}`,
      /^note: text is longer than 20 characters/,
    ),
    tooLarge(
      "an escaped string too long once decoded",
      `["${"\\u0041".repeat(21)}"]`,
      /^0: text is longer than 20 characters/,
    ),
    tooLarge("a key too long", `{"${"k".repeat(21)}":1}`, /a key is longer than 20 characters/),
    // NUL: 400
    badRequest("NUL in a string", '{"title":"a\\u0000b"}', /^title: text must not contain NUL/),
    badRequest(
      "NUL deep inside, with the path",
      '{"extra":{"list":["fine","bad\\u0000"]}}',
      /^extra\.list\.1: text must not contain NUL/,
    ),
    badRequest("NUL in a key", '{"ok":{"ti\\u0000tle":"x"}}', /^ok\.ti\\u0000: a key must not contain NUL/),
    notJson("raw NUL (a control character JSON never allows raw)", '["a\u0000"]'),
    // lone surrogates: 400
    badRequest(
      "an escaped lone high surrogate",
      '{"text":"\\ud800"}',
      /^text: text must not contain a lone surrogate/,
    ),
    badRequest(
      "an escaped lone low surrogate",
      '{"text":"\\udc00"}',
      /^text: text must not contain a lone surrogate/,
    ),
    badRequest("a high surrogate followed by a plain character", '{"text":"\\ud83dx"}', /lone surrogate/),
    badRequest(
      "a high surrogate followed by an escaped plain character",
      '{"text":"\\ud83d\\u0041"}',
      /lone surrogate/,
    ),
    badRequest("a high surrogate followed by an escape", '{"text":"\\ud83d\\n"}', /lone surrogate/),
    badRequest("two high surrogates", '{"text":"\\ud83d\\ud83d"}', /lone surrogate/),
    badRequest("a pair the wrong way round", '{"text":"\\ude00\\ud83d"}', /lone surrogate/),
    badRequest("a raw lone surrogate", '{"text":"\ud800"}', /lone surrogate/),
    badRequest(
      "a lone surrogate in a key, shown escaped",
      '{"k\\ud800":1}',
      /^k\\ud800: a key must not contain a lone surrogate/,
    ),
    badRequest(
      "a lone surrogate in an array in an object",
      '{"parts":[{"text":"ok"},{"text":"\\udfff"}]}',
      /^parts\.1\.text: text must not/,
    ),
    // numbers: 400
    badRequest("a number too large to be one", '{"n":1e400}', /^n: the number 1e400 is too large/),
    notJson("a leading zero", "[01]"),
    notJson("a leading plus", "[+1]"),
    notJson("a bare minus", "[-]"),
    notJson("a trailing dot", "[1.]"),
    notJson("a leading dot", "[.5]"),
    notJson("an exponent with no digits", "[1e]"),
    notJson("NaN", "[NaN]"),
    notJson("Infinity", "[Infinity]"),
    notJson("hex", "[0x10]"),
    // text that is not JSON: 400
    notJson("nothing", "", /not valid JSON: it ends too soon/),
    notJson("only whitespace", "  \n"),
    notJson("an unclosed object", '{"a":1', /it ends too soon/),
    notJson("an unclosed string", '{"a":"b', /it ends too soon/),
    notJson("a trailing comma", "[1,]", /unexpected "]" at character 4/),
    notJson("a missing colon", '{"a" 1}'),
    notJson("a key that is not a string", "{a:1}"),
    notJson("single quotes", "{'a':1}"),
    notJson("a mismatched bracket", "[1}"),
    notJson("text after the value", '{"a":1} {"b":2}', /unexpected "\{" at character 9/),
    notJson("an unknown escape", '"\\x41"'),
    notJson("a short unicode escape", '"\\u12"'),
    notJson("a raw line break in a string", '"a\nb"'),
    notJson("a misspelt literal", "[tru]"),
    notJson("a comment", "[1 /* one */]"),
    notJson("a byte-order mark", "\ufeff{}"),
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
