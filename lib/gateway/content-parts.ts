// A message's content parts as OpenAI's clients send them, read as its text and its images. Chat completions send
// `{ type: "text" }` and `{ type: "image_url", image_url: { url, detail? } }`; the Responses API `input_text`,
// `output_text` and `{ type: "input_image", image_url, detail? }`. An image is a `data:` URL (base64) of a JPEG, PNG,
// GIF or WebP: its bytes pass the same checks as an upload through the chat (checkUploadBytes: sniffed, whole,
// under the image limit) and are stored the same way (storeUpload, a pending attachment the user message then
// carries), so the persona's pipeline and the inspector treat it as any uploaded image. Remote http(s) URLs are
// refused: fetching them would let a caller make the server reach any address, and the chat's own image links
// are fetched only from text a person wrote. `detail` is accepted and left to the persona's media settings.

import "server-only";
import { createHash } from "node:crypto";
import { z } from "zod";
import { storeUpload } from "@/db/attachment-queries";
import type { Database } from "@/db/client";
import { AppError } from "@/lib/domain/errors";
import { checkUploadBytes } from "@/lib/media/check-upload";
import { IMAGE_MIMES } from "@/lib/media/image-mimes";
import { KIND_NAMES, sniffUploadType } from "@/lib/media/sniff";
import { MAX_MESSAGE_IMAGES } from "@/lib/media/upload-limits";
import { invalidField } from "./errors";

/** An image of a message, checked: its bytes, what they are, and their SHA-256 (the transcript hash's form). */
export interface ContentImage {
  /** The field it came from, as OpenAI names it: `messages[1].content[0].image_url.url`. */
  param: string;
  bytes: Uint8Array;
  mime: string;
  width: number | null;
  height: number | null;
  sha256: string;
}

export interface MessageContent {
  /** The text parts, joined by new lines. */
  text: string;
  images: ContentImage[];
}

type Part = { type: string } & Record<string, unknown>;
type Role = "system" | "developer" | "user" | "assistant" | "tool";

const detail = z
  .enum(["auto", "low", "high"], { error: "must be one of auto, low, high" })
  .nullable()
  .optional();
const chatImagePart = z.object({
  image_url: z.object(
    { url: z.string({ error: "must be a data: URL" }), detail },
    { error: "must be an object" },
  ),
});
const responsesImagePart = z.object({
  image_url: z.string({ error: "must be a data: URL" }).nullable().optional(),
  file_id: z
    .null({ error: "file ids are not supported: send the image as a data: URL in image_url" })
    .optional(),
  detail,
});

/** A chat completions message's content: a string, or text and (on a user message) image_url parts. */
export function chatMessageContent(content: string | Part[] | null | undefined, where: string, role: Role) {
  return readParts(content, where, { role, imageType: "image_url" }, (part, at) => {
    if (part.type === "text" && typeof part.text === "string") return part.text;
    if (part.type === "image_url") {
      const { image_url } = checked(chatImagePart, part, at);
      return decodeImageUrl(image_url.url, `${at}.image_url.url`);
    }
    throw invalidField(
      at,
      `parts of type ${JSON.stringify(part.type)} are not supported by this gateway; send text or image_url.`,
    );
  });
}

/** A Responses input message's content: a string, or input_text/output_text and (user) input_image parts. */
export function responsesItemContent(content: string | Part[] | undefined, where: string, role: Role) {
  return readParts(content, where, { role, imageType: "input_image" }, (part, at) => {
    if ((part.type === "input_text" || part.type === "output_text") && typeof part.text === "string")
      return part.text;
    if (part.type === "input_image") {
      const { image_url } = checked(responsesImagePart, part, at);
      if (!image_url) throw invalidField(`${at}.image_url`, "must be a data: URL of the image.");
      return decodeImageUrl(image_url, `${at}.image_url`);
    }
    throw invalidField(
      at,
      `parts of type ${JSON.stringify(part.type)} are not supported by this gateway; send input_text or input_image.`,
    );
  });
}

function readParts(
  content: string | Part[] | null | undefined,
  where: string,
  { role, imageType }: { role: Role; imageType: string },
  readPart: (part: Part, at: string) => string | ContentImage,
): MessageContent {
  if (content === null || content === undefined) return { text: "", images: [] };
  if (typeof content === "string") return { text: content, images: [] };
  const texts: string[] = [];
  const images: ContentImage[] = [];
  content.forEach((part, index) => {
    const at = `${where}.content[${index}]`;
    if (part.type === imageType) {
      if (role !== "user")
        throw invalidField(at, `only the user's messages may carry images, not a ${role}'s.`);
      if (images.length === MAX_MESSAGE_IMAGES) {
        throw invalidField(at, `a message may carry at most ${MAX_MESSAGE_IMAGES} images.`);
      }
    }
    const read = readPart(part, at);
    if (typeof read === "string") texts.push(read);
    else images.push(read);
  });
  return { text: texts.join("\n"), images };
}

function checked<Schema extends z.ZodType>(schema: Schema, part: Part, at: string): z.infer<Schema> {
  const parsed = schema.safeParse(part);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw invalidField([at, ...issue.path.map(String)].join("."), issue.message);
}

/** The accepted declared types: the four raster formats, and the common misspelling of JPEG's. */
const DECLARED_IMAGE_TYPES: readonly string[] = [...IMAGE_MIMES, "image/jpg"];
/** Base64's alphabet and padding; the length is checked apart (a pattern of groups overflows on megabytes). */
const BASE64_CHARS = /^[A-Za-z0-9+/]*={0,2}$/;
const SEND_DATA_URL = "send the image inline as a data: URL (data:image/png;base64,…)";

/**
 * The image a `data:` URL carries, checked as an upload is: the declared type must be an image's, the data base64,
 * and the bytes a whole JPEG, PNG, GIF or WebP under the image limit (the bytes decide the stored type). Every
 * refusal is a 400 naming `param`.
 */
export function decodeImageUrl(url: string, param: string): ContentImage {
  if (/^https?:/i.test(url)) {
    throw invalidField(param, `remote image URLs are not fetched by this gateway; ${SEND_DATA_URL}.`);
  }
  if (!/^data:/i.test(url)) throw invalidField(param, `is not a data: URL; ${SEND_DATA_URL}.`);
  const comma = url.indexOf(",");
  if (comma < 0) throw invalidField(param, "is not a data: URL (it has no comma before its data).");
  const [declared = "", ...parameters] = url.slice(5, comma).split(";");
  const mime = declared.trim().toLowerCase();
  if (!DECLARED_IMAGE_TYPES.includes(mime)) {
    throw invalidField(
      param,
      `declares ${mime ? JSON.stringify(mime) : "no type"}; send a JPEG, PNG, GIF or WebP image (image/jpeg, image/png, image/gif, image/webp).`,
    );
  }
  if (!parameters.some((parameter) => parameter.trim().toLowerCase() === "base64")) {
    throw invalidField(param, `must be base64-encoded (data:${mime};base64,…).`);
  }
  const data = url.slice(comma + 1);
  if (!isBase64(data)) throw invalidField(param, "its data is not valid base64.");
  const bytes = new Uint8Array(Buffer.from(data, "base64"));
  if (bytes.byteLength === 0) throw invalidField(param, "the image is empty.");
  if (!sniffUploadType(bytes)) throw invalidField(param, "its bytes are not a JPEG, PNG, GIF or WebP image.");
  let sniffed: ReturnType<typeof checkUploadBytes>;
  try {
    sniffed = checkUploadBytes(bytes, mime);
  } catch (error) {
    if (error instanceof AppError) throw invalidField(param, error.message);
    throw error;
  }
  if (sniffed.kind !== "image") {
    throw invalidField(param, `its bytes are a ${KIND_NAMES[sniffed.kind]}, not an image.`);
  }
  return {
    param,
    bytes,
    mime: sniffed.mime,
    width: sniffed.width,
    height: sniffed.height,
    sha256: createHash("sha256").update(bytes).digest("hex"),
  };
}

/** Standard base64, padded or not: whole groups of 4 when padded, never a lone character over a group. */
function isBase64(data: string): boolean {
  if (!BASE64_CHARS.test(data) || data.length % 4 === 1) return false;
  return !data.endsWith("=") || data.length % 4 === 0;
}

/** Stores the images as the user's pending attachments of the conversation: the ids their message carries. */
export async function storeContentImages({
  db,
  conversationId,
  userId,
  images,
}: {
  db: Database;
  conversationId: string;
  userId: string;
  images: readonly ContentImage[];
}): Promise<string[]> {
  const ids: string[] = [];
  for (const image of images) {
    const stored = await storeUpload({
      db,
      conversationId,
      uploadedBy: userId,
      bytes: image.bytes,
      mime: image.mime,
      kind: "image",
      filename: null,
      width: image.width,
      height: image.height,
    });
    ids.push(stored.id);
  }
  return ids;
}
