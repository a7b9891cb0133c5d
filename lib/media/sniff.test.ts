import { describe, expect, it } from "vitest";
import { TEST_IMAGES } from "@/tests/fixtures/images";
import { type SniffedImage, sniffImage } from "./sniff";

const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(
    parts.map((part) => (typeof part === "string" ? Buffer.from(part, "latin1") : Buffer.from(part))),
  );

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe("sniffImage recognises the four image types by their bytes", () => {
  const cases: Array<{ name: string; input: Buffer; expected: SniffedImage }> = [
    { name: "JPEG, baseline (SOF0)", input: TEST_IMAGES.jpegBaseline, expected: image("image/jpeg", 3, 2) },
    {
      name: "JPEG, progressive (SOF2)",
      input: TEST_IMAGES.jpegProgressive,
      expected: image("image/jpeg", 3, 2),
    },
    { name: "PNG", input: TEST_IMAGES.png, expected: image("image/png", 3, 2) },
    { name: "GIF89a", input: TEST_IMAGES.gif, expected: image("image/gif", 3, 2) },
    { name: "WebP, lossy (VP8)", input: TEST_IMAGES.webpLossy, expected: image("image/webp", 3, 2) },
    { name: "WebP, lossless (VP8L)", input: TEST_IMAGES.webpLossless, expected: image("image/webp", 3, 2) },
    { name: "WebP, extended (VP8X)", input: TEST_IMAGES.webpExtended, expected: image("image/webp", 3, 2) },
    {
      name: "GIF87a header only",
      input: bytes("GIF87a", [0x40, 0x01, 0xf0, 0x00]),
      expected: image("image/gif", 320, 240),
    },
    {
      name: "JPEG with fill bytes and an APP0 segment before SOF0",
      input: bytes(
        [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0xaa, 0xbb],
        [0xff, 0xff, 0xc0, 0x00, 0x0b, 0x08, 0x01, 0xe0, 0x02, 0x80, 0x01, 0x01, 0x11, 0x00],
      ),
      expected: image("image/jpeg", 640, 480),
    },
    // Truncated or unusual headers are still the type their signature says, just without dimensions.
    {
      name: "JPEG signature only",
      input: bytes([0xff, 0xd8, 0xff, 0xe0]),
      expected: image("image/jpeg", null, null),
    },
    {
      name: "JPEG whose scan starts before any frame header",
      input: bytes([0xff, 0xd8, 0xff, 0xda, 0x00, 0x02]),
      expected: image("image/jpeg", null, null),
    },
    { name: "PNG signature only", input: bytes(PNG_SIGNATURE), expected: image("image/png", null, null) },
    { name: "GIF signature only", input: bytes("GIF89a"), expected: image("image/gif", null, null) },
    {
      name: "WebP with an unknown first chunk",
      input: bytes("RIFF", [0, 0, 0, 0], "WEBPXXXX"),
      expected: image("image/webp", null, null),
    },
    {
      name: "PNG declaring a 0×0 image",
      input: bytes(PNG_SIGNATURE, [0, 0, 0, 13], "IHDR", [0, 0, 0, 0, 0, 0, 0, 0]),
      expected: image("image/png", null, null),
    },
  ];

  it.each(cases)("$name", ({ input, expected }) => {
    expect(sniffImage(input)).toEqual(expected);
  });

  it("reads a Uint8Array that is a view into a larger buffer", () => {
    const padded = Buffer.concat([Buffer.from("padding"), TEST_IMAGES.png]);
    const view = new Uint8Array(padded.buffer, padded.byteOffset + 7, TEST_IMAGES.png.length);
    expect(sniffImage(view)).toEqual(image("image/png", 3, 2));
  });
});

describe("sniffImage refuses everything else", () => {
  const cases: Array<{ name: string; input: Buffer }> = [
    { name: "empty", input: bytes() },
    { name: "SVG", input: TEST_IMAGES.svg },
    {
      name: "SVG with an XML prolog",
      input: bytes('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>'),
    },
    { name: "plain text", input: bytes("hello, this is not a picture") },
    { name: "HTML", input: bytes("<!doctype html><img src=x onerror=alert(1)>") },
    { name: "PDF", input: bytes("%PDF-1.7\n%âãÏÓ\n") },
    { name: "ZIP", input: bytes([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]) },
    { name: "BMP", input: bytes("BM", [0x3a, 0, 0, 0, 0, 0, 0, 0]) },
    { name: "RIFF that is WAVE audio, not WebP", input: bytes("RIFF", [0x24, 0, 0, 0], "WAVEfmt ") },
    { name: "GIF with an unknown version", input: bytes("GIF88a", [3, 0, 2, 0]) },
    {
      name: "PNG signature with one byte wrong",
      input: bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0b]),
    },
    { name: "two bytes of a JPEG signature", input: bytes([0xff, 0xd8]) },
    { name: "a PNG signature that is not at the start", input: bytes(" ", PNG_SIGNATURE) },
  ];

  it.each(cases)("$name", ({ input }) => {
    expect(sniffImage(input)).toBeNull();
  });
});

function image(mime: SniffedImage["mime"], width: number | null, height: number | null): SniffedImage {
  return { kind: "image", mime, width, height };
}
