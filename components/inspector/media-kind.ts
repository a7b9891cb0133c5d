// What a media type is called in the inspector: the kind first ("PDF document", "audio clip"), since the raw
// view's placeholders and the payload's media tiles must say what was sent, not only its mime type.

export function mediaKindName(mediaType: string): string {
  if (mediaType.startsWith("image/")) return "image";
  if (mediaType === "application/pdf") return "PDF document";
  if (mediaType.startsWith("audio/")) return "audio clip";
  if (mediaType.startsWith("video/")) return "video";
  return "file";
}
