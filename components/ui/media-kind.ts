// What a file is, from its media type, for the chat (which player or card shows it) and the inspector (which
// name the raw view's placeholders and the payload's tiles give it: the kind first, since they must say what was
// sent, not only its mime type).

export type FileKind = "image" | "document" | "audio" | "video" | "other";

export function fileKind(mediaType: string): FileKind {
  if (mediaType.startsWith("image/")) return "image";
  if (mediaType === "application/pdf") return "document";
  if (mediaType.startsWith("audio/")) return "audio";
  if (mediaType.startsWith("video/")) return "video";
  return "other";
}

const KIND_NAMES: Record<FileKind, string> = {
  image: "image",
  document: "PDF document",
  audio: "audio clip",
  video: "video",
  other: "file",
};

export function mediaKindName(mediaType: string): string {
  return KIND_NAMES[fileKind(mediaType)];
}
