// The raw view's readable form replaces large base64 media with a placeholder (type, size, sha256) and leaves
// everything else as JSON.stringify would print it.
import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import {
  mediaPlaceholder,
  prettyWithoutMedia,
  sha256OfBase64,
} from "@/components/inspector/media-placeholders";

const bytes = Buffer.alloc(300_000, 7);
const base64 = bytes.toString("base64");
const sha = createHash("sha256").update(bytes).digest("hex");

describe("prettyWithoutMedia", () => {
  test("a body without media prints exactly as JSON.stringify(…, null, 2)", () => {
    const body = JSON.stringify({ model: "m", messages: [{ role: "user", content: "short text" }] });
    expect(prettyWithoutMedia(body)?.text).toBe(JSON.stringify(JSON.parse(body), null, 2));
    expect(prettyWithoutMedia(body)?.media).toEqual([]);
  });

  test("a data URL (OpenAI) and bare base64 beside a mimeType (Gemini) become placeholders with type and size", () => {
    const body = JSON.stringify({
      messages: [{ content: [{ type: "image_url", image_url: { url: `data:image/png;base64,${base64}` } }] }],
      contents: [{ parts: [{ inlineData: { mimeType: "image/webp", data: base64 } }] }],
    });
    const result = prettyWithoutMedia(body, new Map([["contents.0.parts.0.inlineData.data", sha]]));
    expect(result?.media.map((media) => [media.path, media.mediaType, media.bytes])).toEqual([
      ["messages.0.content.0.image_url.url", "image/png", 300_000],
      ["contents.0.parts.0.inlineData.data", "image/webp", 300_000],
    ]);
    expect(result?.text).toContain('"url": "[image elided: image/png, 293.0 KB, sha256 …]"');
    expect(result?.text).toContain(`"data": "[image elided: image/webp, 293.0 KB, sha256 ${sha}]"`);
    expect(result?.text.length).toBeLessThan(2_000);
  });

  test("short base64 and ordinary long text stay inline; a body that is not JSON gives null", () => {
    const prose = "word ".repeat(2_000);
    const body = JSON.stringify({ small: "aGVsbG8=", prose });
    expect(prettyWithoutMedia(body)?.text).toBe(JSON.stringify(JSON.parse(body), null, 2));
    expect(prettyWithoutMedia("not json")).toBeNull();
  });
});

test("sha256OfBase64 hashes the decoded bytes", async () => {
  expect(await sha256OfBase64(base64)).toBe(sha);
  expect(mediaPlaceholder({ path: "x", mediaType: "image/gif", bytes: 10, base64: "" }, "ab")).toBe(
    "[image elided: image/gif, 10 B, sha256 ab]",
  );
});
