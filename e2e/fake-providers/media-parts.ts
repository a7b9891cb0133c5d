// The media a request carries, read from each protocol's real wire shape, so tests can ask "what did the model
// receive" without parsing bodies: OpenAI chat `image_url`, `input_audio` and `file` parts; Responses
// `input_image` and `input_file`; Gemini `inlineData` with its mime type.
import { asArray, asRecord, asString } from "./json-fields";

export interface RecordedMedia {
  /** The wire part that carried it: "image_url", "input_audio", "file", "input_image", "input_file", "inlineData". */
  part: string;
  mediaType: string;
  /** The file name the part named (OpenAI documents), else null. */
  filename: string | null;
  /** Decoded size of the inline bytes. */
  bytes: number;
}

const DATA_URL = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s;

function decodedLength(base64: string): number {
  return Buffer.from(base64, "base64").length;
}

function fromDataUrl(part: string, url: unknown, filename: string | null = null): RecordedMedia | null {
  const match = DATA_URL.exec(asString(url) ?? "");
  if (!match) return null;
  return { part, mediaType: match[1] ?? "", filename, bytes: decodedLength(match[2] ?? "") };
}

const AUDIO_FORMATS: Record<string, string> = { wav: "audio/wav", mp3: "audio/mpeg" };

function openAIChatPart(part: Record<string, unknown>): RecordedMedia | null {
  switch (part.type) {
    case "image_url":
      return fromDataUrl("image_url", asRecord(part.image_url)?.url);
    case "input_audio": {
      const audio = asRecord(part.input_audio);
      const format = asString(audio?.format) ?? "";
      return {
        part: "input_audio",
        mediaType: AUDIO_FORMATS[format] ?? `audio/${format}`,
        filename: null,
        bytes: decodedLength(asString(audio?.data) ?? ""),
      };
    }
    case "file": {
      const file = asRecord(part.file);
      return fromDataUrl("file", file?.file_data, asString(file?.filename) ?? null);
    }
    default:
      return null;
  }
}

function responsesPart(part: Record<string, unknown>): RecordedMedia | null {
  if (part.type === "input_image") return fromDataUrl("input_image", part.image_url);
  if (part.type === "input_file") {
    return fromDataUrl("input_file", part.file_data, asString(part.filename) ?? null);
  }
  return null;
}

function collect(
  contents: unknown[],
  partsOf: (entry: Record<string, unknown>) => unknown,
  read: (part: Record<string, unknown>) => RecordedMedia | null,
): RecordedMedia[] {
  const found: RecordedMedia[] = [];
  for (const entry of contents) {
    const record = asRecord(entry);
    if (!record) continue;
    for (const part of asArray(partsOf(record))) {
      const media = asRecord(part) ? read(part as Record<string, unknown>) : null;
      if (media) found.push(media);
    }
  }
  return found;
}

export function openAIChatMedia(body: unknown): RecordedMedia[] {
  return collect(asArray(asRecord(body)?.messages), (message) => message.content, openAIChatPart);
}

export function openAIResponsesMedia(body: unknown): RecordedMedia[] {
  return collect(asArray(asRecord(body)?.input), (item) => item.content, responsesPart);
}

export function geminiMedia(body: unknown): RecordedMedia[] {
  return collect(
    asArray(asRecord(body)?.contents),
    (content) => content.parts,
    (part) => {
      const inline = asRecord(part.inlineData);
      if (!inline) return null;
      return {
        part: "inlineData",
        mediaType: asString(inline.mimeType) ?? "",
        filename: null,
        bytes: decodedLength(asString(inline.data) ?? ""),
      };
    },
  );
}
