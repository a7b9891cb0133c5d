// Proves a file of a sniffed type is a whole image of that type, not just its first bytes: the container is
// walked from the signature to its end marker (PNG chunks with their CRCs, GIF blocks to the trailer, JPEG
// segments and scans to EOI, WebP's RIFF chunks to the declared size), so a bare signature, a truncated file and
// anything appended after the end (an HTML page behind a PNG) are refused. Pixel data is not decompressed: the
// structure, the checksums and a header a real decoder (image-size) reads are the proof.

import { crc32 } from "node:zlib";
import type { ImageMime } from "./image-mimes";

/** What is wrong with the file, as the end of a sentence ("… is truncated"); null when it is whole. */
export function imageStructureProblem(bytes: Buffer, mime: ImageMime): string | null {
  switch (mime) {
    case "image/png":
      return pngProblem(bytes);
    case "image/gif":
      return gifProblem(bytes);
    case "image/jpeg":
      return jpegProblem(bytes);
    case "image/webp":
      return webpProblem(bytes);
  }
}

const TRUNCATED = "is truncated (it ends before the image does)";

function trailing(extra: number): string {
  return `has ${extra} byte${extra === 1 ? "" : "s"} of other data after the end of the image`;
}

function pngProblem(bytes: Buffer): string | null {
  let at = 8;
  let chunks = 0;
  let sawImageData = false;
  while (at < bytes.length) {
    if (at + 12 > bytes.length) return TRUNCATED;
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString("latin1", at + 4, at + 8);
    const end = at + 12 + length;
    if (length > 0x7fffffff || end > bytes.length) return TRUNCATED;
    if (chunks === 0 && (type !== "IHDR" || length !== 13)) return "does not start with a PNG header chunk";
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== bytes.readUInt32BE(at + 8 + length)) {
      return `has a damaged ${/^[A-Za-z]{4}$/.test(type) ? type : "PNG"} chunk (its checksum does not match)`;
    }
    chunks++;
    if (type === "IDAT") sawImageData = true;
    if (type === "IEND") {
      if (!sawImageData) return "has no image data";
      return end === bytes.length ? null : trailing(bytes.length - end);
    }
    at = end;
  }
  return TRUNCATED;
}

/** Skips GIF data sub-blocks (size byte, data, … a zero size); returns where they end, or -1 past the file. */
function skipSubBlocks(bytes: Buffer, start: number): number {
  let at = start;
  for (;;) {
    if (at >= bytes.length) return -1;
    const size = bytes[at];
    at += 1;
    if (size === 0) return at;
    at += size;
  }
}

function gifProblem(bytes: Buffer): string | null {
  if (bytes.length < 13) return TRUNCATED;
  const screenFlags = bytes[10];
  let at = 13 + (screenFlags & 0x80 ? 3 * 2 ** ((screenFlags & 0x07) + 1) : 0);
  let images = 0;
  while (at < bytes.length) {
    const introducer = bytes[at];
    if (introducer === 0x3b) {
      if (images === 0) return "has no image in it";
      return at + 1 === bytes.length ? null : trailing(bytes.length - at - 1);
    }
    if (introducer === 0x21) {
      at = skipSubBlocks(bytes, at + 2);
    } else if (introducer === 0x2c) {
      if (at + 10 > bytes.length) return TRUNCATED;
      const imageFlags = bytes[at + 9];
      at += 10 + (imageFlags & 0x80 ? 3 * 2 ** ((imageFlags & 0x07) + 1) : 0);
      at = skipSubBlocks(bytes, at + 1); // after the LZW minimum code size
      images++;
    } else {
      return "has a block this format does not have (the file is damaged)";
    }
    if (at < 0) return TRUNCATED;
  }
  return TRUNCATED;
}

function jpegProblem(bytes: Buffer): string | null {
  let at = 2;
  let sawFrame = false;
  let sawScan = false;
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) return "has data where a JPEG marker must be (the file is damaged)";
    while (at + 1 < bytes.length && bytes[at + 1] === 0xff) at++; // fill bytes
    if (at + 2 > bytes.length) return TRUNCATED;
    const marker = bytes[at + 1];
    if (marker === 0xd9) {
      if (!sawScan) return "ends before any image data";
      return at + 2 === bytes.length ? null : trailing(bytes.length - at - 2);
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (at + 4 > bytes.length) return TRUNCATED;
    const length = bytes.readUInt16BE(at + 2);
    if (length < 2 || at + 2 + length > bytes.length) return TRUNCATED;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      sawFrame = true;
    }
    at += 2 + length;
    if (marker !== 0xda) continue;
    if (!sawFrame) return "has image data before its frame header";
    sawScan = true;
    // Entropy-coded data: FF 00 is a data byte and FF D0–D7 a restart; any other FF xx is the next marker.
    while (at < bytes.length) {
      if (bytes[at] === 0xff && at + 1 < bytes.length) {
        const next = bytes[at + 1];
        if (next !== 0x00 && next !== 0xff && !(next >= 0xd0 && next <= 0xd7)) break;
      }
      at++;
    }
    if (at >= bytes.length - 1) return TRUNCATED;
  }
  return TRUNCATED;
}

function webpProblem(bytes: Buffer): string | null {
  if (bytes.length < 12) return TRUNCATED;
  const declared = bytes.readUInt32LE(4) + 8;
  if (declared > bytes.length) return TRUNCATED;
  if (declared < bytes.length) return trailing(bytes.length - declared);
  let at = 12;
  let chunks = 0;
  let sawImage = false;
  while (at < bytes.length) {
    if (at + 8 > bytes.length) return TRUNCATED;
    const type = bytes.toString("latin1", at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    const data = at + 8;
    if (data + size > bytes.length) return TRUNCATED;
    if (chunks === 0 && type !== "VP8 " && type !== "VP8L" && type !== "VP8X") {
      return "does not start with a WebP image chunk";
    }
    if (type === "VP8 ") {
      // A key frame: bit 0 of the frame tag clear, then the start code 9D 01 2A.
      if (size < 10 || (bytes[data] & 1) !== 0 || bytes.readUIntBE(data + 3, 3) !== 0x9d012a) {
        return "has a damaged VP8 image header";
      }
      sawImage = true;
    } else if (type === "VP8L") {
      if (size < 5 || bytes[data] !== 0x2f) return "has a damaged VP8L image header";
      sawImage = true;
    } else if (type === "ANMF") {
      sawImage = true;
    }
    chunks++;
    at = data + size + (size & 1);
  }
  if (at !== bytes.length) return TRUNCATED;
  return sawImage ? null : "has no image data";
}
