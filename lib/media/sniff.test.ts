import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/domain/errors";
import { TEST_IMAGES } from "@/tests/fixtures/images";
import { makeIsoMedia, TEST_MEDIA, testMedium } from "@/tests/fixtures/media";
import { type SniffedImage, sniffImage, sniffImageType, sniffUpload, sniffUploadType } from "./sniff";

const bytes = (...parts: Array<string | number[] | Buffer>) =>
  Buffer.concat(
    parts.map((part) =>
      typeof part === "string"
        ? Buffer.from(part, "latin1")
        : Buffer.isBuffer(part)
          ? part
          : Buffer.from(part),
    ),
  );

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe("sniffImageType recognises the four image types by their bytes", () => {
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
    expect(sniffImageType(input)).toEqual(expected);
  });

  it("reads a Uint8Array that is a view into a larger buffer", () => {
    const padded = Buffer.concat([Buffer.from("padding"), TEST_IMAGES.png]);
    const view = new Uint8Array(padded.buffer, padded.byteOffset + 7, TEST_IMAGES.png.length);
    expect(sniffImageType(view)).toEqual(image("image/png", 3, 2));
  });
});

describe("sniffImageType refuses everything else", () => {
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
    expect(sniffImageType(input)).toBeNull();
    expect(sniffImage(input)).toBeNull();
  });
});

describe("sniffImage accepts only whole images, with the dimensions a decoder reads", () => {
  const whole: Array<[keyof typeof TEST_IMAGES, SniffedImage["mime"]]> = [
    ["jpegBaseline", "image/jpeg"],
    ["jpegProgressive", "image/jpeg"],
    ["png", "image/png"],
    ["gif", "image/gif"],
    ["webpLossy", "image/webp"],
    ["webpLossless", "image/webp"],
    ["webpExtended", "image/webp"],
  ];
  it.each(whole)("%s is a whole %s, 3×2", (name, mime) => {
    expect(sniffImage(TEST_IMAGES[name])).toEqual(image(mime, 3, 2));
  });

  const png = TEST_IMAGES.png;
  const damagedCrc = Buffer.from(png);
  damagedCrc[20] ^= 0xff; // a byte of the IHDR chunk's data
  const riffWithSize = (body: Buffer) => {
    const header = Buffer.alloc(8);
    header.write("RIFF", 0, "latin1");
    header.writeUInt32LE(body.length, 4);
    return Buffer.concat([header, body]);
  };
  const refused: Array<{ name: string; input: Buffer; message: RegExp }> = [
    { name: "an 8-byte PNG signature", input: bytes(PNG_SIGNATURE), message: /PNG.*truncated/ },
    {
      name: "a PNG followed by HTML",
      input: bytes(png, "<html><script>alert(1)</script></html>"),
      message: /PNG.*after the end/,
    },
    {
      name: "a PNG cut in half",
      input: png.subarray(0, Math.floor(png.length / 2)),
      message: /PNG.*truncated/,
    },
    {
      name: "a PNG without its end chunk",
      input: png.subarray(0, png.length - 12),
      message: /PNG.*truncated/,
    },
    { name: "a PNG with a damaged header chunk", input: damagedCrc, message: /damaged IHDR/ },
    {
      name: "a bare RIFF…WEBP header",
      input: bytes("RIFF", [4, 0, 0, 0], "WEBP"),
      message: /WebP.*(no image|truncated)/,
    },
    {
      name: "a RIFF…WEBP header claiming more than there is",
      input: bytes("RIFF", [0, 1, 0, 0], "WEBPVP8 "),
      message: /WebP.*truncated/,
    },
    {
      name: "a WebP with an unknown first chunk",
      input: riffWithSize(bytes("WEBPXXXX", [0, 0, 0, 0])),
      message: /WebP.*image chunk/,
    },
    {
      name: "a WebP followed by HTML",
      input: bytes(TEST_IMAGES.webpLossy, "<html>"),
      message: /WebP.*after the end/,
    },
    { name: "a JPEG signature only", input: bytes([0xff, 0xd8, 0xff, 0xe0]), message: /JPEG.*truncated/ },
    {
      name: "a JPEG without its end marker",
      input: TEST_IMAGES.jpegBaseline.subarray(0, TEST_IMAGES.jpegBaseline.length - 2),
      message: /JPEG.*truncated/,
    },
    {
      name: "a JPEG followed by HTML",
      input: bytes(TEST_IMAGES.jpegBaseline, "<html>"),
      message: /JPEG.*after the end/,
    },
    {
      name: "a JPEG header with no scan",
      input: bytes([0xff, 0xd8, 0xff, 0xd9]),
      message: /JPEG.*before any image data/,
    },
    { name: "a GIF signature only", input: bytes("GIF89a"), message: /GIF.*truncated/ },
    {
      name: "a GIF header only",
      input: bytes("GIF87a", [0x40, 0x01, 0xf0, 0x00]),
      message: /GIF.*truncated/,
    },
    {
      name: "a GIF followed by HTML",
      input: bytes(TEST_IMAGES.gif, "<html>"),
      message: /GIF.*after the end/,
    },
    {
      name: "a GIF with no image",
      input: bytes("GIF89a", [3, 0, 2, 0, 0, 0, 0, 0x3b]),
      message: /GIF.*no image/,
    },
  ];
  it.each(refused)("$name: 415 that says what is wrong", ({ input, message }) => {
    let thrown: unknown;
    try {
      sniffImage(input);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).status).toBe(415);
    expect((thrown as AppError).message).toMatch(message);
  });
});

function image(mime: SniffedImage["mime"], width: number | null, height: number | null): SniffedImage {
  return { kind: "image", mime, width, height };
}

describe("sniffUpload recognises documents, audio and video by their bytes", () => {
  const cases: Array<{ name: string; bytes: Buffer; kind: string; mime: string }> = [
    { name: "PDF", ...testMedium("pdf") },
    { name: "MP3 with an ID3 tag", ...testMedium("mp3") },
    { name: "MP3 frames without a tag", ...testMedium("mp3Frames") },
    { name: "WAV", ...testMedium("wav") },
    { name: "OGG", ...testMedium("ogg") },
    { name: "FLAC", ...testMedium("flac") },
    { name: "M4A (ftyp M4A)", ...testMedium("m4a") },
    { name: "MP4 (ftyp isom)", ...testMedium("mp4") },
    { name: "MP4 (ftyp mp42)", bytes: makeIsoMedia("mp42"), kind: "video", mime: "video/mp4" },
    { name: "MOV (ftyp qt)", ...testMedium("mov") },
    { name: "WebM", ...testMedium("webm") },
    { name: "a PNG is still an image", bytes: TEST_IMAGES.png, kind: "image", mime: "image/png" },
  ];
  it.each(cases)("$name → $kind $mime", ({ bytes: input, kind, mime }) => {
    expect(sniffUploadType(input)).toMatchObject({ kind, mime });
    expect(sniffUpload(input)).toMatchObject({ kind, mime });
  });

  const refused: Array<{ name: string; input: Buffer }> = [
    { name: "empty", input: bytes() },
    { name: "plain text", input: bytes("hello, this is not a document") },
    { name: "a PDF signature that is not at the start", input: bytes(" %PDF-1.7\n%%EOF") },
    { name: "RIFF that is AVI, not WAV", input: bytes("RIFF", [0, 0, 0, 0], "AVI LIST") },
    {
      name: "Matroska (not WebM)",
      input: bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x88], "matroska"),
    },
    { name: "an MPEG frame sync of layer I", input: bytes([0xff, 0xfe, 0x90, 0x64]) },
    { name: "ZIP", input: bytes([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]) },
    { name: "an ftyp box with an unprintable brand", input: bytes([0, 0, 0, 0x18], "ftyp", [1, 2, 3, 4]) },
  ];
  it.each(refused)("$name → null", ({ input }) => {
    expect(sniffUploadType(input)).toBeNull();
    expect(sniffUpload(input)).toBeNull();
  });

  it("a PDF cut short (no %%EOF) is a 415 that says so", () => {
    const cut = TEST_MEDIA.pdf.subarray(0, TEST_MEDIA.pdf.length - 20);
    expect(sniffUploadType(cut)).toMatchObject({ kind: "file" });
    expect(() => sniffUpload(cut)).toThrow(/PDF but is truncated/);
  });
});
