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

// One small part of each media kind, as each wire format carries it: small enough (a one-page PDF, a short clip)
// that only the field it sits in, not its length, says it is media.
const pdf = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n");
const wav = Buffer.from("RIFF\u0024\u0000\u0000\u0000WAVEfmt ");
const png = Buffer.from("\u0089PNG\r\n\u001a\n0000IHDR");
const b64 = (bytes: Buffer) => bytes.toString("base64");

describe.each([
  {
    format: "OpenAI chat image_url",
    part: { type: "image_url", image_url: { url: `data:image/png;base64,${b64(png)}` } },
    path: "image_url.url",
    placeholder: `[image elided: image/png, ${png.length} B, sha256 …]`,
  },
  {
    format: "OpenAI chat file",
    part: { type: "file", file: { filename: "a.pdf", file_data: `data:application/pdf;base64,${b64(pdf)}` } },
    path: "file.file_data",
    placeholder: `[PDF document elided: application/pdf, ${pdf.length} B, sha256 …]`,
  },
  {
    format: "OpenAI chat input_audio",
    part: { type: "input_audio", input_audio: { data: b64(wav), format: "wav" } },
    path: "input_audio.data",
    placeholder: `[audio clip elided: audio/wav, ${wav.length} B, sha256 …]`,
  },
  {
    format: "OpenAI Responses input_image",
    part: { type: "input_image", image_url: `data:image/png;base64,${b64(png)}` },
    path: "image_url",
    placeholder: `[image elided: image/png, ${png.length} B, sha256 …]`,
  },
  {
    format: "OpenAI Responses input_file",
    part: { type: "input_file", filename: "a.pdf", file_data: `data:application/pdf;base64,${b64(pdf)}` },
    path: "file_data",
    placeholder: `[PDF document elided: application/pdf, ${pdf.length} B, sha256 …]`,
  },
  {
    format: "Anthropic image",
    part: { type: "image", source: { type: "base64", media_type: "image/png", data: b64(png) } },
    path: "source.data",
    placeholder: `[image elided: image/png, ${png.length} B, sha256 …]`,
  },
  {
    format: "Anthropic document",
    part: { type: "document", source: { type: "base64", media_type: "application/pdf", data: b64(pdf) } },
    path: "source.data",
    placeholder: `[PDF document elided: application/pdf, ${pdf.length} B, sha256 …]`,
  },
  {
    format: "Gemini inlineData PDF",
    part: { inlineData: { mimeType: "application/pdf", data: b64(pdf) } },
    path: "inlineData.data",
    placeholder: `[PDF document elided: application/pdf, ${pdf.length} B, sha256 …]`,
  },
  {
    format: "Gemini inlineData audio",
    part: { inlineData: { mimeType: "audio/wav", data: b64(wav) } },
    path: "inlineData.data",
    placeholder: `[audio clip elided: audio/wav, ${wav.length} B, sha256 …]`,
  },
])("$format", ({ part, path, placeholder }) => {
  test("is elided whatever its size, and only its base64 changes", () => {
    const body = JSON.stringify({
      model: "m",
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }, part] }],
    });
    const result = prettyWithoutMedia(body);
    const expected = structuredClone(JSON.parse(body));
    const keys = path.split(".");
    let holder = expected.messages[0].content[1];
    for (const key of keys.slice(0, -1)) holder = holder[key];
    holder[keys.at(-1) as string] = placeholder;
    expect(result?.text).toBe(JSON.stringify(expected, null, 2));
    expect(result?.media.map((media) => media.path)).toEqual([`messages.0.content.1.${path}`]);
  });
});

test("a short bare base64 value outside a media field (no mime type beside it) stays inline", () => {
  const body = JSON.stringify({ data: b64(pdf), format: "json", tool: { data: b64(wav) } });
  expect(prettyWithoutMedia(body)?.text).toBe(JSON.stringify(JSON.parse(body), null, 2));
});
