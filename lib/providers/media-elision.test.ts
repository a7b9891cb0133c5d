// Stored bodies elide every kind of media the providers are sent, and restore to the exact original bytes.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { makePdf, makeWav } from "@/tests/fixtures/media";
import { elideMedia, restoreMedia } from "./media-elision";

const pdf = makePdf("elided").toString("base64");
const wav = makeWav(100).toString("base64");
const sha = (base64: string) => createHash("sha256").update(Buffer.from(base64, "base64")).digest("hex");

describe("media elision by kind", () => {
  it.each([
    {
      name: "an OpenAI chat PDF file part",
      body: JSON.stringify({
        type: "file",
        file: { filename: "a.pdf", file_data: `data:application/pdf;base64,${pdf}` },
      }),
      base64: pdf,
      mime: "application/pdf",
    },
    {
      name: "a Responses input_file",
      body: JSON.stringify({
        type: "input_file",
        filename: "a.pdf",
        file_data: `data:application/pdf;base64,${pdf}`,
      }),
      base64: pdf,
      mime: "application/pdf",
    },
    {
      name: "OpenAI chat input_audio (a format, not a mime type)",
      body: JSON.stringify({ type: "input_audio", input_audio: { data: wav, format: "wav" } }),
      base64: wav,
      mime: "audio/wav",
    },
    {
      name: "Gemini inlineData audio",
      body: JSON.stringify({ inlineData: { mimeType: "audio/wav", data: wav } }),
      base64: wav,
      mime: "audio/wav",
    },
  ])("$name: elided to its sha256, restored byte for byte", ({ body, base64, mime }) => {
    const { body: stored, media } = elideMedia(body);
    expect(stored).not.toContain(base64.slice(0, 100));
    expect(stored).toContain(
      `[elided-media sha256=${sha(base64)} bytes=${Buffer.from(base64, "base64").length}]`,
    );
    expect(media).toEqual([{ sha256: sha(base64), mime, bytes: Buffer.from(base64, "base64").length }]);
    expect(restoreMedia(stored, (hash) => (hash === sha(base64) ? base64 : undefined))).toBe(body);
  });
});
